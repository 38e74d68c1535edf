package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.AuditAction;
import io.ankusa.api.Hook;
import io.ankusa.api.PurgeKind;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.queue.upkeep.Housekeeping;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.RecordingStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Housekeeping: reclaim, the dedupe sweep and audit retention, in one round or on the queue's own thread. */
class HousekeepingTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    // Hooks reach reclaim through a purge: a settle that delivers a hook's last row deletes the hook itself.
    void aHousekeepingRoundReclaimsHooksSweepsExpiredDedupeKeysAndPrunesTheAuditTrail(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.dedupeWindow(Duration.ofMinutes(1))
                .auditRetention(Duration.ofMinutes(2)))) {
            q.recordAudit(AuditAction.REPLAY, "t", Map.of());
            for (int i = 0; i < 3; i++) {
                q.ingest(Hook.builder().id("h" + i).sourceId("s").tenantId("t").idempotencyKey("k" + i).sinks(0).build());
            }
            q.queue().purgeTenant("t", Set.of(PurgeKind.PENDING));
            q.clock().advance(Duration.ofMinutes(3).toMillis());

            // Two audit entries are past retention: the replay's and the purge's.
            assertThat(q.engine().housekeeping().runOnce()).isEqualTo(new Housekeeping.Report(3, 3, 2));
            assertThat(q.engine().housekeeping().runOnce()).isEqualTo(new Housekeeping.Report(0, 0, 0));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theHousekeepingThreadReclaimsOnItsOwn(String backend) throws Exception {
        AtomicReference<RecordingStore> recorder = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.housekeepingInterval(Duration.ofMillis(5)), s -> {
            recorder.set(new RecordingStore(s));
            return recorder.get();
        })) {
            q.ingest(QueueUnderTest.hook("h", "t", 0));
            q.queue().purgeTenant("t", Set.of(PurgeKind.PENDING));
            boolean reclaimed = recorder.get().await(c -> c.batch().map(HousekeepingTest::deletesAHook).orElse(false),
                    Duration.ofSeconds(60));
            assertThat(reclaimed).isTrue();
            assertThat(ReclaimTest.hooks(q.store())).isEmpty();
        }
    }

    private static boolean deletesAHook(WriteBatch batch) {
        return batch.ops().stream().anyMatch(op -> op instanceof WriteBatch.Delete d && d.family().equals(ColumnFamilies.HOOKS));
    }
}
