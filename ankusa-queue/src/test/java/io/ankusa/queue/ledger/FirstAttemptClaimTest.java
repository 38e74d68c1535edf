package io.ankusa.queue.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Receipt;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.HookKey;
import io.ankusa.queue.deliveries.DeliveryRow;
import io.ankusa.store.Durability;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.RecordingStore;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A claim reads a due row's delivery row only when its attempts may be more than 0: a first attempt
 * written in this run (ingest, expansion, revive, a release from the quarantine) is claimed as
 * attempt 1 without the read; a retry, and every row stored when the queue opened (boot recovery
 * and the migration keep a count and run at open), is read and gets its attempts + 1.
 */
class FirstAttemptClaimTest {

    @TempDir
    Path dir;

    private final AtomicReference<RecordingStore> recording = new AtomicReference<>();

    private QueueUnderTest open(String backend) {
        return QueueUnderTest.open(backend, dir, b -> b, s -> {
            recording.set(new RecordingStore(s));
            return recording.get();
        });
    }

    /** Every due row of tenant {@code t} claimed in one tick's claim (mark, read, claimAll). */
    private static List<ClaimedDelivery> claimAll(QueueUnderTest q, String t) {
        long ord = q.ord(t).orElseThrow();
        DeliveryLedger ledger = q.ledger();
        long mark = ledger.dueReadMark();
        List<DueRow> due = ledger.dueForTenant(ord, q.clock().millis(), 0, 100, Long.MAX_VALUE);
        Claim claim = ledger.claimAll(Map.of(ord, due), Map.of(), mark);
        assertThat(claim.quarantined()).isEmpty();
        return claim.claimed().stream().sorted(Comparator.comparing(ClaimedDelivery::hookId)).toList();
    }

    /** Delivery-row keys the store was asked for since the last {@code clear()}. */
    private long deliveryRowsRead() {
        return recording.get().calls().stream()
                .filter(c -> c.family().equals(ColumnFamilies.DELIVERIES))
                .filter(c -> c.method().equals("multiGet") || c.method().equals("get"))
                .mapToLong(c -> c.keys().size())
                .sum();
    }

    private static void retryNow(QueueUnderTest q, ClaimedDelivery d) {
        q.ledger().settle(List.of(new Settlement.Retry(d, q.clock().millis(), "boom " + d.attempt())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aFirstAttemptIngestedInThisRunIsClaimedAsAttempt1WithoutReadingItsDeliveryRow(String backend) {
        try (QueueUnderTest q = open(backend)) {
            q.ingest(QueueUnderTest.hook("a", "t", 0, 1));
            q.ingest(QueueUnderTest.hook("b", "t", 0));
            recording.get().clear();

            List<ClaimedDelivery> claimed = claimAll(q, "t");

            assertThat(claimed).extracting(ClaimedDelivery::attempt).containsExactly(1, 1, 1);
            assertThat(deliveryRowsRead()).as("delivery rows read").isZero();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRetryReadsItsDeliveryRowAndGetsItsAttempts1ThroughBothClaimPaths(String backend) {
        try (QueueUnderTest q = open(backend)) {
            q.ingest(QueueUnderTest.hook("a", "t", 0));
            q.ingest(QueueUnderTest.hook("b", "t", 0));
            claimAll(q, "t").forEach(d -> retryNow(q, d));
            q.ingest(QueueUnderTest.hook("c", "t", 0));
            recording.get().clear();

            List<ClaimedDelivery> second = claimAll(q, "t");

            assertThat(second).extracting(ClaimedDelivery::hookId, ClaimedDelivery::attempt).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("a", 2), org.assertj.core.groups.Tuple.tuple("b", 2),
                    org.assertj.core.groups.Tuple.tuple("c", 1));
            assertThat(deliveryRowsRead()).as("the two retries' delivery rows, not the new row's").isEqualTo(2);

            // The claim without a mark (rows read again under the stripe) follows the same rule.
            second.stream().filter(d -> d.hookId().equals("a")).forEach(d -> retryNow(q, d));
            long ord = q.ord("t").orElseThrow();
            List<DueRow> due = q.ledger().dueForTenant(ord, q.clock().millis(), 0, 100, Long.MAX_VALUE);
            assertThat(due).extracting(DueRow::kind).containsExactly(DueKind.RETRY);
            assertThat(q.ledger().claim(ord, due).claimed()).singleElement()
                    .extracting(ClaimedDelivery::attempt).isEqualTo(3);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRetryLeftInflightAndRecoveredAtOpenKeepsItsCountAlsoWhenClaimedRunsLater(String backend) {
        try (QueueUnderTest q = open(backend)) {
            q.ingest(QueueUnderTest.hook("r", "t", 0));
            q.ingest(QueueUnderTest.hook("s", "t", 0));
            claimAll(q, "t").forEach(d -> retryNow(q, d));
            // Claimed again (attempt 2, the stored row records 1) and left inflight by the "crash".
            assertThat(claimAll(q, "t")).extracting(ClaimedDelivery::attempt).containsExactly(2, 2);

            q.reopen();
            long ord = q.ord("t").orElseThrow();
            List<DueRow> recovered = q.ledger().dueForTenant(ord, q.clock().millis(), 0, 100, Long.MAX_VALUE);
            assertThat(recovered).as("due again as first attempts").extracting(DueRow::kind)
                    .containsExactly(DueKind.FIRST_ATTEMPT, DueKind.FIRST_ATTEMPT);
            // Recovered, not claimed in that run: the next run's open recovers nothing, and must still read them.
            q.reopen();
            q.ingest(QueueUnderTest.hook("u", "t", 0));
            recording.get().clear();

            List<ClaimedDelivery> claimed = claimAll(q, "t");

            assertThat(claimed).extracting(ClaimedDelivery::hookId, ClaimedDelivery::attempt).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("r", 2), org.assertj.core.groups.Tuple.tuple("s", 2),
                    org.assertj.core.groups.Tuple.tuple("u", 1));
            assertThat(deliveryRowsRead()).as("the recovered rows' delivery rows, not the new row's").isEqualTo(2);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRetryRecoveredByTheLedgerInTheSameRunKeepsItsCount(String backend) {
        try (QueueUnderTest q = open(backend)) {
            q.ingest(QueueUnderTest.hook("r", "t", 0));
            claimAll(q, "t").forEach(d -> retryNow(q, d));
            assertThat(claimAll(q, "t")).extracting(ClaimedDelivery::attempt).containsExactly(2);

            assertThat(q.ledger().recoverInflight()).isEqualTo(1);

            assertThat(claimAll(q, "t")).extracting(ClaimedDelivery::attempt).containsExactly(2);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRevivedDeadLetterAndARowReleasedFromTheQuarantineStartAgainAtAttempt1(String backend) {
        try (QueueUnderTest q = open(backend)) {
            Receipt dead = q.ingest(QueueUnderTest.hook("dead", "t", 0));
            Receipt held = q.ingest(QueueUnderTest.hook("held", "t", 0));
            long ord = q.ord("t").orElseThrow();
            for (ClaimedDelivery d : claimAll(q, "t")) {
                if (d.hookId().equals("dead")) {
                    q.ledger().settle(List.of(new Settlement.Dead(d, "gave up")));
                } else {
                    retryNow(q, d);
                }
            }
            // "held" is a retry (1 attempt stored) whose hook no longer decodes: quarantined by the claim.
            byte[] original = q.damageHook(held.seq());
            List<DueRow> due = q.ledger().dueForTenant(ord, q.clock().millis(), 0, 100, Long.MAX_VALUE);
            Claim claim = q.ledger().claimAll(Map.of(ord, due), Map.of(), q.ledger().dueReadMark());
            assertThat(claim.quarantined()).extracting(QuarantinedRow::seq).containsExactly(held.seq());
            q.store().commit(new WriteBatch().put(ColumnFamilies.HOOKS, new HookKey(held.seq()).encode(), original),
                    Durability.SYNC);
            assertThat(q.queue().releaseQuarantine("t").rows()).isEqualTo(1);
            List<DeadRow> deadRows = q.ledger().deadRows(ord, 10);
            assertThat(deadRows).extracting(DeadRow::seq).containsExactly(dead.seq());
            assertThat(q.ledger().revive(ord, deadRows)).isEqualTo(1);
            for (Receipt r : List.of(dead, held)) {
                DeliveryRow stored = DeliveryRow.decode(q.store().get(ColumnFamilies.DELIVERIES,
                        new DeliveryKey(r.seq(), 0).encode()).orElseThrow());
                assertThat(stored.attempts()).as("stored attempts of " + r.seq()).isZero();
                assertThat(stored.lastError()).as("the last error kept for history").isNotEmpty();
            }
            recording.get().clear();

            assertThat(claimAll(q, "t")).extracting(ClaimedDelivery::hookId, ClaimedDelivery::attempt).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("dead", 1), org.assertj.core.groups.Tuple.tuple("held", 1));
            assertThat(deliveryRowsRead()).as("written in this run with 0 attempts: not read").isZero();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aFreshRowsDeliveryRowDamagedInThisRunIsSentAsAttempt1AndWrittenAnewByItsRetry(String backend) {
        try (QueueUnderTest q = open(backend)) {
            Receipt r = q.ingest(QueueUnderTest.hook("h", "t", 0));
            byte[] key = new DeliveryKey(r.seq(), 0).encode();
            q.store().commit(new WriteBatch().put(ColumnFamilies.DELIVERIES, key, new byte[] {(byte) 0xFF}), Durability.SYNC);

            List<ClaimedDelivery> claimed = claimAll(q, "t");
            assertThat(claimed).extracting(ClaimedDelivery::attempt).containsExactly(1);
            retryNow(q, claimed.get(0));

            DeliveryRow stored = DeliveryRow.decode(q.store().get(ColumnFamilies.DELIVERIES, key).orElseThrow());
            assertThat(stored.attempts()).isEqualTo(1);
            assertThat(claimAll(q, "t")).extracting(ClaimedDelivery::attempt).containsExactly(2);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

}
