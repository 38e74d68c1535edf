package io.ankusa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.Receipt;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.Settlement;
import io.ankusa.store.StoreException;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.InterruptingStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Replays in the audit trail: one entry per call and tenant revived, none for a replay that revives nothing. */
class ReplayAuditTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void replaysByHookTenantAndPageReadBackNewestFirstOneEntryPerTenantRevived(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            deadLetter(q, "t0", 3);
            q.clock().advance(1_000);
            deadLetter(q, "t2", 1);
            q.clock().advance(1_000);
            deadLetter(q, "t1", 2);
            q.clock().advance(1_000);
            Replayer replayer = Replayer.of(q.queue());

            assertThat(replayer.replayHook("t0", "t0-0").revived()).isEqualTo(2);
            q.clock().advance(1_000);
            assertThat(replayer.replayTenant("t0").revived()).isEqualTo(4);
            q.clock().advance(1_000);
            assertThat(replayer.replayTenant("t0").revived()).isZero();
            assertThat(replayer.replayTenant("nobody").revived()).isZero();
            assertThat(replayer.replayHook("t1", "no-such-hook").revived()).isZero();
            assertThat(replayer.replayPage(new DeadLetterCursor(0, 0, 0), 10).revived()).isZero();
            assertThat(q.queue().auditTrail(10)).as("a replay that revives nothing records nothing").hasSize(2);
            assertThat(replayer.replayPage(10).revived()).as("t1's four (newest), then t2's two").isEqualTo(6);

            List<AuditEntry> trail = q.queue().auditTrail(10);

            assertThat(trail).extracting(AuditEntry::seq).containsExactly(4L, 3L, 2L, 1L);
            assertThat(trail).extracting(AuditEntry::action).containsOnly(AuditAction.REPLAY);
            assertThat(trail).extracting(AuditEntry::tenantId).containsExactly("t2", "t1", "t0", "t0");
            assertThat(trail).extracting(AuditEntry::counts).containsExactly(Map.of("revived", 2L), Map.of("revived", 4L),
                    Map.of("revived", 4L), Map.of("revived", 2L));
            assertThat(trail).extracting(AuditEntry::at).containsExactly(Instant.ofEpochMilli(QueueUnderTest.EPOCH + 5_000),
                    Instant.ofEpochMilli(QueueUnderTest.EPOCH + 5_000), Instant.ofEpochMilli(QueueUnderTest.EPOCH + 4_000),
                    Instant.ofEpochMilli(QueueUnderTest.EPOCH + 3_000));
            q.reopen();
            assertThat(q.queue().auditTrail(10)).isEqualTo(trail);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aReplayCutShortRecordsWhatItRevivedAsInterruptedAndNothingIfItRevivedNothing(String backend) {
        AtomicReference<InterruptingStore> faults = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            faults.set(new InterruptingStore(s));
            return faults.get();
        })) {
            deadLetter(q, "big", 300);
            Replayer replayer = Replayer.of(q.queue());

            faults.get().failCommit(1, b -> true);
            assertThatThrownBy(() -> replayer.replayTenant("big")).isInstanceOf(StoreException.class);
            assertThat(q.queue().auditTrail(10)).as("the first batch failed: nothing revived").isEmpty();

            faults.get().failCommit(2, b -> true);
            assertThatThrownBy(() -> replayer.replayTenant("big")).isInstanceOf(StoreException.class);
            assertThat(q.queue().auditTrail(10)).extracting(AuditEntry::counts)
                    .containsExactly(Map.of("revived", 500L, "interrupted", 1L));
            assertThat(q.queue().deadForTenant("big").dead()).isEqualTo(100);

            assertThat(replayer.replayTenant("big").revived()).isEqualTo(100);
            List<AuditEntry> trail = q.queue().auditTrail(10);
            assertThat(trail).extracting(AuditEntry::tenantId).containsExactly("big", "big");
            assertThat(trail.get(0).counts()).containsExactly(Map.entry("revived", 100L));
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aReplayerActingAsAPrincipalAndItsJobsRecordTheActor(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            deadLetter(q, "t0", 2);
            deadLetter(q, "t1", 1);
            Replayer replayer = Replayer.of(q.queue());

            assertThat(replayer.actingAs("ops:ann").replayHook("t0", "t0-0").revived()).isEqualTo(2);
            assertThat(replayer.actingAs("ops:bob").job(DeadLetterFilter.all().tenant("t1")).run().replayed())
                    .isEqualTo(2);
            assertThat(replayer.replayTenant("t0").revived()).isEqualTo(2);

            assertThat(q.queue().auditTrail(10)).extracting(AuditEntry::actor).containsExactly(Optional.empty(),
                    Optional.of("ops:bob"), Optional.of("ops:ann"));
            assertThatThrownBy(() -> replayer.actingAs("")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** Ingests {@code hooks} hooks of {@code tenant} ({@code <tenant>-0}, …) with sinks 0 and 1 and dead-letters every row now. */
    private static void deadLetter(QueueUnderTest q, String tenant, int hooks) {
        List<CompletableFuture<Receipt>> futures = new ArrayList<>();
        for (int i = 0; i < hooks; i++) {
            futures.add(q.queue().ingest(QueueUnderTest.hook(tenant + "-" + i, tenant, 0, 1)));
        }
        futures.forEach(QueueUnderTest::await);
        long ord = q.ord(tenant).orElseThrow();
        DeliveryLedger ledger = q.ledger();
        List<ClaimedDelivery> claimed = ledger.claim(ord,
                ledger.dueForTenant(ord, q.clock().millis(), 0, 2 * hooks, Long.MAX_VALUE)).claimed();
        assertThat(claimed).hasSize(2 * hooks);
        ledger.settle(claimed.stream().<Settlement>map(d -> new Settlement.Dead(d, "HTTP 410")).toList());
    }
}
