package io.ankusa.tests.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.Receipt;
import io.ankusa.api.TenantStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.SinkOutcome;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.store.Durability;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 12, case 3 (first step): a stored hook that does not decode is corruption, reported where a
 * claim needs it; its rows are kept due and counted, never settled as orphans.
 */
class UndecodableHookTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    @DisplayName("a hook that does not decode is never dropped")
    void undecodableHookIsNeverDropped(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            Receipt damaged = q.ingest(QueueUnderTest.hook("damaged", "a", 0, 1));
            byte[] stored = q.store().get(ColumnFamilies.HOOKS, new HookKey(damaged.seq()).encode()).orElseThrow();
            byte[] garbage = new byte[stored.length];
            java.util.Arrays.fill(garbage, (byte) 0xFF);
            q.store().commit(new WriteBatch().put(ColumnFamilies.HOOKS, new HookKey(damaged.seq()).encode(), garbage),
                    Durability.SYNC);
            TenantStats before = q.queue().pendingForTenant("a");
            assertThat(before.pending()).isEqualTo(2);

            AtomicInteger sinkCalls = new AtomicInteger();
            try (Pipeline pipeline = Pipeline.builder(q.queue(), d -> {
                sinkCalls.incrementAndGet();
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }).build()) {
                assertThatThrownBy(pipeline::tick).isInstanceOf(StoreCorruptionException.class)
                        .hasMessageContaining("hook " + damaged.seq() + " is stored but does not decode");
            }
            assertThat(sinkCalls).hasValue(0);
            assertThat(q.queue().pendingForTenant("a")).as("the rows stay due and counted").isEqualTo(before);
            assertThat(q.store().get(ColumnFamilies.HOOKS, new HookKey(damaged.seq()).encode())).hasValue(garbage);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
            IndexFold.of(q.store()).assertEveryDueRowHasAMarker();
        }
    }
}
