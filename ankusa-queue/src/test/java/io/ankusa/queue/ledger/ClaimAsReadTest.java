package io.ankusa.queue.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.TenantStats;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.store.Durability;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.ForwardingStore;
import io.ankusa.tests.support.RecordingStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A tick's claim of rows it read after {@code dueReadMark()} takes them as read (no second read of
 * the due rows under the stripes) only while no due row was removed since the mark: a purge or
 * another claim in between makes it read them again, so counters stay a fold of the index.
 */
class ClaimAsReadTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void rowsReadAfterTheMarkAreClaimedWithoutReadingTheDueRowsAgain(String backend) {
        AtomicReference<RecordingStore> recording = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            recording.set(new RecordingStore(s));
            return recording.get();
        })) {
            for (int i = 0; i < 5; i++) {
                q.ingest(QueueUnderTest.hook("h" + i, "t", 0));
            }
            long ord = q.ord("t").orElseThrow();
            DeliveryLedger ledger = q.ledger();
            long mark = ledger.dueReadMark();
            List<DueRow> due = ledger.dueForTenant(ord, q.clock().millis(), 0, 3, Long.MAX_VALUE);
            recording.get().clear();

            Claim claim = ledger.claimAll(Map.of(ord, due), Map.of(), mark);

            assertThat(claim.claimed()).hasSize(3);
            assertThat(indexReads(recording.get())).as("due rows read again").isZero();
            assertThat(q.queue().pendingForTenant("t").inflight()).isEqualTo(3);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPurgeAfterTheMarkMakesTheClaimReadItsRowsAgainAndSkipThePurgedOnes(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            for (int i = 0; i < 5; i++) {
                q.ingest(QueueUnderTest.hook("h" + i, "t", 0));
            }
            long ord = q.ord("t").orElseThrow();
            DeliveryLedger ledger = q.ledger();
            long mark = ledger.dueReadMark();
            List<DueRow> due = ledger.dueForTenant(ord, q.clock().millis(), 0, 5, Long.MAX_VALUE);
            assertThat(q.engine().purge().purgeDueChunk(ord, 2)).isEqualTo(2);

            Claim claim = ledger.claimAll(Map.of(ord, due), Map.of(), mark);

            assertThat(claim.claimed()).hasSize(3);
            assertThat(q.queue().pendingForTenant("t")).isEqualTo(new TenantStats(0, 0, 3, 0, 3 * sizeOf(due)));
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aClaimAfterTheMarkMakesTheNextClaimReadItsRowsAgainAndSkipTheClaimedOnes(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            for (int i = 0; i < 4; i++) {
                q.ingest(QueueUnderTest.hook("h" + i, "t", 0));
            }
            long ord = q.ord("t").orElseThrow();
            DeliveryLedger ledger = q.ledger();
            long mark = ledger.dueReadMark();
            List<DueRow> due = ledger.dueForTenant(ord, q.clock().millis(), 0, 4, Long.MAX_VALUE);
            assertThat(ledger.claim(ord, due.subList(0, 1)).claimed()).hasSize(1);

            Claim claim = ledger.claimAll(Map.of(ord, due), Map.of(), mark);

            assertThat(claim.claimed()).hasSize(3);
            assertThat(q.queue().pendingForTenant("t").inflight()).isEqualTo(4);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPurgeUnderWayAtTheMarkCommittedAfterTheReadMakesTheClaimReadItsRowsAgain(String backend) throws Exception {
        CountDownLatch purgeCommitting = new CountDownLatch(1);
        CountDownLatch letPurgeCommit = new CountDownLatch(1);
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> new ForwardingStore(s) {
            @Override
            public void commit(WriteBatch batch, Durability durability) {
                boolean purge = durability == Durability.SYNC && batch.ops().stream()
                        .anyMatch(op -> op instanceof WriteBatch.Delete d && d.family().equals(ColumnFamilies.DELIVERIES));
                if (purge) {
                    purgeCommitting.countDown();
                    try {
                        assertThat(letPurgeCommit.await(30, TimeUnit.SECONDS)).isTrue();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
                super.commit(batch, durability);
            }
        })) {
            for (int i = 0; i < 5; i++) {
                q.ingest(QueueUnderTest.hook("h" + i, "t", 0));
            }
            long ord = q.ord("t").orElseThrow();
            DeliveryLedger ledger = q.ledger();
            CompletableFuture<Integer> purged = CompletableFuture.supplyAsync(() -> q.engine().purge().purgeDueChunk(ord, 2));
            assertThat(purgeCommitting.await(30, TimeUnit.SECONDS)).isTrue();
            // The purge holds the stripe and has not committed: the mark and the read come before its commit.
            long mark = ledger.dueReadMark();
            List<DueRow> due = ledger.dueForTenant(ord, q.clock().millis(), 0, 5, Long.MAX_VALUE);
            assertThat(due).hasSize(5);
            letPurgeCommit.countDown();
            assertThat(purged.get(30, TimeUnit.SECONDS)).isEqualTo(2);

            Claim claim = ledger.claimAll(Map.of(ord, due), Map.of(), mark);

            assertThat(claim.claimed()).hasSize(3);
            assertThat(q.queue().pendingForTenant("t")).isEqualTo(new TenantStats(0, 0, 3, 0, 3 * sizeOf(due)));
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDeliveryRowRewrittenBetweenTheClaimsReadsAndItsStripesIsReadAgainUnderThem(String backend) {
        AtomicReference<Runnable> onDeliveryRead = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> new ForwardingStore(s) {
            @Override
            public List<Optional<byte[]>> multiGet(String family, List<byte[]> keys) {
                List<Optional<byte[]>> values = super.multiGet(family, keys);
                // The claim's reads before the stripes: the hooks (a first attempt's delivery row is not read).
                Runnable interloper = family.equals(ColumnFamilies.HOOKS) ? onDeliveryRead.getAndSet(null) : null;
                if (interloper != null) {
                    interloper.run();
                }
                return values;
            }
        })) {
            q.ingest(QueueUnderTest.hook("h0", "t", 0));
            long ord = q.ord("t").orElseThrow();
            DeliveryLedger ledger = q.ledger();
            long mark = ledger.dueReadMark();
            List<DueRow> due = ledger.dueForTenant(ord, q.clock().millis(), 0, 1, Long.MAX_VALUE);
            // Right after the claim read the hook (the row is a first attempt, 0 attempts), before it takes the stripes:
            // another claimer claims the row and settles it as a retry due at the same time, so the
            // same due key is back with a delivery row of one attempt.
            onDeliveryRead.set(() -> {
                ClaimedDelivery other = ledger.claim(ord, due).claimed().get(0);
                assertThat(other.attempt()).isEqualTo(1);
                ledger.settle(List.of(new Settlement.Retry(other, due.get(0).at(), "interloper")));
            });

            Claim claim = ledger.claimAll(Map.of(ord, due), Map.of(), mark);

            assertThat(onDeliveryRead.get()).as("the interloper ran").isNull();
            assertThat(claim.claimed()).hasSize(1);
            assertThat(claim.claimed().get(0).attempt()).as("the attempt after the interloper's").isEqualTo(2);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    private static long sizeOf(List<DueRow> rows) {
        return rows.get(0).size();
    }

    private static long indexReads(RecordingStore store) {
        return store.calls().stream()
                .filter(c -> c.method().equals("multiGet") || c.method().equals("get"))
                .filter(c -> c.family().equals(ColumnFamilies.INDEX))
                .count();
    }
}
