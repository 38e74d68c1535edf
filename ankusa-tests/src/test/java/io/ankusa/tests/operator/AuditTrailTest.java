package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.PurgeKind;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The audit trail: entries read back newest first, and retention that never reuses an entry's number. */
class AuditTrailTest {

    private static final Duration RETENTION = Duration.ofDays(30);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void purgesAndRecordedReplaysReadBackNewestFirstWithTimeActionTenantAndCounts(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("h1", "acme", 0, 1));
            Operations.deadLetter(q, "acme", 1);
            q.clock().advance(1_000);
            q.queue().purgeTenant("acme", Set.of(PurgeKind.DEAD));
            q.clock().advance(1_000);
            q.recordAudit(AuditAction.REPLAY, "globex", Map.of("revived", 12L));
            q.clock().advance(1_000);
            q.queue().purgeTenant("acme", Set.of(PurgeKind.PENDING, PurgeKind.DEAD));

            List<AuditEntry> trail = q.queue().auditTrail(10);

            assertThat(trail).extracting(AuditEntry::seq).containsExactly(3L, 2L, 1L);
            assertThat(trail).extracting(AuditEntry::action).containsExactly(AuditAction.PURGE, AuditAction.REPLAY, AuditAction.PURGE);
            assertThat(trail).extracting(AuditEntry::tenantId).containsExactly("acme", "globex", "acme");
            AuditEntry firstPurge = trail.get(2);
            assertThat(firstPurge.at()).isEqualTo(Instant.ofEpochMilli(QueueUnderTest.EPOCH + 1_001));
            assertThat(firstPurge.counts()).containsExactly(Map.entry("pending", 0L), Map.entry("scheduled", 0L),
                    Map.entry("dead", 1L), Map.entry("bytes", firstPurge.counts().get("bytes")));
            assertThat(firstPurge.counts().get("bytes")).isPositive();
            assertThat(trail.get(0).counts()).containsEntry("pending", 1L).containsEntry("dead", 0L);
            assertThat(trail.get(1).counts()).containsExactly(Map.entry("revived", 12L));

            assertThat(q.queue().auditTrail(2)).extracting(AuditEntry::seq).containsExactly(3L, 2L);
            assertThat(q.queue().auditTrail(2, 10)).extracting(AuditEntry::seq).containsExactly(1L);
            q.reopen();
            assertThat(q.queue().auditTrail(10)).isEqualTo(trail);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void retentionPrunesOldEntriesInBoundedBatchesAndEntryNumbersAreNeverReused(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.auditRetention(RETENTION))) {
            for (int i = 0; i < 5; i++) {
                q.recordAudit(AuditAction.REPLAY, "t" + i, Map.of("revived", (long) i));
            }
            q.clock().advance(RETENTION.toMillis());
            q.recordAudit(AuditAction.REPLAY, "young", Map.of());
            q.clock().advance(1);

            assertThat(q.engine().audit().prune(q.clock().millis() - RETENTION.toMillis(), 2)).isEqualTo(2);
            assertThat(q.engine().housekeeping().pruneAudit()).isEqualTo(3);
            assertThat(q.queue().auditTrail(10)).extracting(AuditEntry::tenantId).containsExactly("young");

            q.clock().advance(RETENTION.toMillis());
            assertThat(q.engine().housekeeping().pruneAudit()).isEqualTo(1);
            assertThat(q.queue().auditTrail(10)).isEmpty();
            q.reopen();
            assertThat(q.recordAudit(AuditAction.REPLAY, "after", Map.of()).seq())
                    .as("numbering goes on after the whole trail was pruned").isEqualTo(7);
        }
    }
}
