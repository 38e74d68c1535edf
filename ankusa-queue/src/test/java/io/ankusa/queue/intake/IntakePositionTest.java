package io.ankusa.queue.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.IntakePosition;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantLimitException;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.store.StoreException;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.InterruptingStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The store-side primitive of the Kafka intake: an intake position is written in the
 * same batch as the hook read from it, or not at all.
 */
class IntakePositionTest {

    private static final Duration NO_WAIT = Duration.ZERO;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anIntakePositionLandsWithItsHookAndSurvivesAReopenPerSource(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            assertThat(q.queue().intakePosition("hooks-0")).isEmpty();
            for (long offset = 0; offset < 5; offset++) {
                QueueUnderTest.await(q.queue().ingest(QueueUnderTest.hook("a" + offset, "a", 0),
                        new IntakePosition("hooks-0", offset), NO_WAIT));
            }
            QueueUnderTest.await(q.queue().ingest(QueueUnderTest.hook("b0", "b", 0), new IntakePosition("hooks-1", 41), NO_WAIT));
            // A hook without a position moves none.
            q.ingest(QueueUnderTest.hook("plain", "a", 0));
            assertThat(q.queue().intakePosition("hooks-0")).hasValue(4);
            assertThat(q.queue().intakePosition("hooks-1")).hasValue(41);

            q.reopen();
            assertThat(q.queue().intakePosition("hooks-0")).hasValue(4);
            assertThat(q.queue().intakePosition("hooks-1")).hasValue(41);
            assertThat(q.queue().intakePosition("hooks-2")).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aFailedCommitWritesNeitherTheHooksNorTheirIntakePosition(String backend) {
        AtomicReference<InterruptingStore> store = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            store.set(new InterruptingStore(s));
            return store.get();
        })) {
            Receipt first = QueueUnderTest.await(q.queue().ingest(QueueUnderTest.hook("h0", "a", 0),
                    new IntakePosition("hooks-0", 10), NO_WAIT));

            // Fail the commit that holds the hook: its position must not land elsewhere.
            store.get().failCommit(1, batch -> batch.ops().stream().anyMatch(
                    op -> op instanceof WriteBatch.Put put && put.family().equals(ColumnFamilies.HOOKS)));
            CompletableFuture<Receipt> failed = q.queue().ingest(QueueUnderTest.hook("h1", "a", 0),
                    new IntakePosition("hooks-0", 11), NO_WAIT);
            assertThatThrownBy(() -> QueueUnderTest.await(failed)).isInstanceOf(StoreException.class);

            assertThat(q.queue().intakePosition("hooks-0")).as("the failed batch's position").hasValue(10);
            assertThat(q.store().get(ColumnFamilies.HOOKS, new HookKey(first.seq() + 1).encode()))
                    .as("the failed batch's hook").isEmpty();
            assertThat(q.queue().pendingForTenant("a").pending()).isEqualTo(1);

            q.reopen();
            assertThat(q.queue().intakePosition("hooks-0")).hasValue(10);
            assertThat(q.queue().pendingForTenant("a").pending()).isEqualTo(1);
            // Read again from the log, the record lands with its position.
            QueueUnderTest.await(q.queue().ingest(QueueUnderTest.hook("h1", "a", 0), new IntakePosition("hooks-0", 11), NO_WAIT));
            assertThat(q.queue().intakePosition("hooks-0")).hasValue(11);
            assertThat(q.queue().pendingForTenant("a").pending()).isEqualTo(2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRefusedHookDoesNotMoveItsSourcesPosition(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.tenantsMax(1).payloadMaxBytes(64))) {
            QueueUnderTest.await(q.queue().ingest(QueueUnderTest.hook("h0", "a", 0), new IntakePosition("p", 0), NO_WAIT));
            assertThatThrownBy(() -> QueueUnderTest.await(q.queue().ingest(QueueUnderTest.hook("h1", "new", 0),
                    new IntakePosition("p", 1), NO_WAIT))).isInstanceOf(TenantLimitException.class);
            io.ankusa.api.Hook big = io.ankusa.api.Hook.builder().id("big").tenantId("a").sourceId("src")
                    .payload(new byte[65]).sinks(0).build();
            assertThatThrownBy(() -> QueueUnderTest.await(q.queue().ingest(big, new IntakePosition("p", 2), NO_WAIT)))
                    .isInstanceOf(InvalidHookException.class);
            assertThat(q.queue().intakePosition("p")).hasValue(0);
        }
    }

    @org.junit.jupiter.api.Test
    void anIntakePositionRefusesAnEmptyLongOrUnprintableSourceAndANegativeOffset() {
        assertThatThrownBy(() -> new IntakePosition("", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IntakePosition("a b", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IntakePosition("x".repeat(201), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IntakePosition("p", -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new IntakePosition("x".repeat(200), Long.MAX_VALUE).offset()).isEqualTo(Long.MAX_VALUE);
    }
}
