package io.ankusa.queue.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.InflightKey;
import io.ankusa.store.Durability;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Boot recovery reads the inflight family up to its hi sentinel, as whole-family folds do. */
class InflightSentinelTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void bootRecoveryReportsALostInflightHiSentinelAsCorruption(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("h1", "a", 0));
            long ord = q.ord("a").orElseThrow();
            assertThat(q.ledger().claim(ord, q.ledger().dueForTenant(ord, q.clock().millis(), 0, 10, Long.MAX_VALUE))
                    .claimed()).hasSize(1);
            q.reopen();
            assertThat(q.queue().pendingForTenant("a").pending()).as("recovered as due").isEqualTo(1);
            q.store().commit(new WriteBatch().delete(ColumnFamilies.INDEX, InflightKey.FAMILY.hi()), Durability.SYNC);
            assertThatThrownBy(q::reopen).isInstanceOf(StoreCorruptionException.class)
                    .hasMessageContaining("inflight family ended without its hi sentinel");
        }
    }
}
