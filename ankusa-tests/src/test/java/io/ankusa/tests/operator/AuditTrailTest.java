package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.PurgeKind;
import io.ankusa.queue.OperatorActions;
import io.ankusa.tests.queue.QueueUnderTest;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The audit trail: entries read back newest first with the actor that made them, and retention that
 * never reuses an entry's number.
 */
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aChangeMadeActingAsAPrincipalIsAuditedWithItAndTheQueuesOwnCallsWithNone(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("h1", "acme", 0, 1));
            Operations.deadLetter(q, "acme", 1);
            OperatorActions ann = q.queue().actingAs("ops:ann");
            EndpointRegistry registry = ann.endpointRegistry();

            ann.disableEndpoint("acme", 0);
            ann.enableEndpoint("acme", 0);
            registry.add("acme", EndpointSpec.of(URI.create("https://hooks.example/in")).withId("billing"));
            registry.rotate("acme", "billing", Duration.ofMinutes(5));
            registry.update("acme", "billing", EndpointSpec.of(URI.create("https://hooks.example/v2")));
            registry.remove("acme", "billing");
            ann.purgeTenant("acme", Set.of(PurgeKind.DEAD));
            ann.releaseQuarantine("acme");
            q.queue().purgeTenant("acme", Set.of(PurgeKind.PENDING));
            ann.eraseTenant("acme");

            List<AuditEntry> trail = q.queue().auditTrail(20);
            assertThat(trail).extracting(AuditEntry::action).containsExactly(AuditAction.ERASE, AuditAction.PURGE,
                    AuditAction.PURGE, AuditAction.ENDPOINT_REMOVE, AuditAction.ENDPOINT_UPDATE,
                    AuditAction.ENDPOINT_ROTATE, AuditAction.ENDPOINT_REGISTER, AuditAction.ENDPOINT_ENABLE,
                    AuditAction.ENDPOINT_DISABLE);
            assertThat(trail).extracting(AuditEntry::actor).containsExactly(Optional.of("ops:ann"), Optional.empty(),
                    Optional.of("ops:ann"), Optional.of("ops:ann"), Optional.of("ops:ann"), Optional.of("ops:ann"),
                    Optional.of("ops:ann"), Optional.of("ops:ann"), Optional.of("ops:ann"));
            assertThat(q.queue().endpointRegistry().actingAs("ops:bob").add("globex",
                    EndpointSpec.of(URI.create("https://hooks.example/g"))).tenant()).isEqualTo("globex");
            assertThat(q.queue().auditTrail(1)).extracting(AuditEntry::actor).containsExactly(Optional.of("ops:bob"));
            assertThatThrownBy(() -> q.queue().actingAs(" ")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> registry.actingAs("a\u0000b")).isInstanceOf(IllegalArgumentException.class);

            List<AuditEntry> before = q.queue().auditTrail(20);
            q.reopen();
            assertThat(q.queue().auditTrail(20)).as("the actors are stored").isEqualTo(before);
        }
    }
}
