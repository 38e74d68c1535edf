package io.ankusa.queue.deliveries;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.TenantStats;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spec §4, constraint 1: many writers change one tenant's rows at once, each through a different
 * op builder (ingest, claim + deliver, claim + retry, claim + dead-letter, revive, purge). Merges
 * cannot lose an update, so the final counters equal the fold exactly, and the rows add up.
 */
class ConcurrentWritersTest {

    private static final int ROUNDS = 40;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void concurrentWritersDoNotLoseCounts(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            List<CompletableFuture<?>> backlog = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                backlog.add(q.queue().ingest(QueueUnderTest.hook("seed" + i, "shared", 0, 1)));
            }
            CompletableFuture.allOf(backlog.toArray(new CompletableFuture<?>[0])).join();
            long ord = q.ord("shared").orElseThrow();
            DeliveryLedger ledger = q.ledger();
            AtomicLong ingested = new AtomicLong(200);
            AtomicLong delivered = new AtomicLong();
            AtomicLong purged = new AtomicLong();
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(6);
            List<Future<?>> workers = new ArrayList<>();
            workers.add(pool.submit(() -> {
                start.await();
                List<CompletableFuture<?>> futures = new ArrayList<>();
                for (int i = 0; i < ROUNDS * 4; i++) {
                    futures.add(q.queue().ingest(QueueUnderTest.hook("h" + i, "shared", 0, 1)));
                    ingested.addAndGet(2);
                }
                CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])).join();
                return null;
            }));
            workers.add(pool.submit(() -> settleLoop(start, q, ledger, ord, d -> {
                ledger.delivered(d.row());
                delivered.incrementAndGet();
            })));
            workers.add(pool.submit(() -> settleLoop(start, q, ledger, ord,
                    d -> ledger.retry(d, q.clock().millis(), "again"))));
            workers.add(pool.submit(() -> settleLoop(start, q, ledger, ord, d -> ledger.dead(d, "gone"))));
            workers.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < ROUNDS; i++) {
                    ledger.revive(ord, ledger.deadRows(ord, 3));
                }
                return null;
            }));
            workers.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < ROUNDS / 4; i++) {
                    purged.addAndGet(q.engine().purge().purgeDueChunk(ord, 2));
                    purged.addAndGet(q.engine().purge().purgeDeadChunk(ord, 1));
                }
                return null;
            }));
            start.countDown();
            for (Future<?> w : workers) {
                w.get(120, TimeUnit.SECONDS);
            }
            pool.shutdown();

            IndexFold fold = IndexFold.of(q.store());
            fold.assertCountersMatch(q.store());
            TenantStats stats = q.queue().pendingForTenant("shared");
            long remaining = stats.pending() + stats.scheduled() + stats.inflight() + q.queue().deadForTenant("shared").dead();
            assertThat(ingested.get()).as("every delivery is delivered, purged or still held")
                    .isEqualTo(delivered.get() + purged.get() + remaining);
            assertThat(stats.inflight()).isZero();

            // Drain what is left, single-threaded: every count must come out exactly zero.
            purged.addAndGet(q.engine().purge().purgeDead(ord));
            Claim rest = ledger.claim(ord, ledger.dueForTenant(ord, q.clock().millis(), 0, 100_000, Long.MAX_VALUE));
            rest.claimed().forEach(d -> ledger.delivered(d.row()));
            delivered.addAndGet(rest.claimed().size());
            assertThat(ingested.get()).isEqualTo(delivered.get() + purged.get());
            assertThat(q.queue().pendingForTenant("shared")).isEqualTo(TenantStats.EMPTY);
            assertThat(q.queue().deadForTenant("shared").dead()).isZero();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    private interface Outcome {
        void settle(ClaimedDelivery delivery);
    }

    private static Void settleLoop(CountDownLatch start, QueueUnderTest q, DeliveryLedger ledger, long ord, Outcome outcome)
            throws InterruptedException {
        start.await();
        for (int i = 0; i < ROUNDS; i++) {
            List<DueRow> due = ledger.dueForTenant(ord, q.clock().millis(), 0, 3, Long.MAX_VALUE);
            Claim claim = ledger.claim(ord, due);
            claim.claimed().forEach(outcome::settle);
        }
        return null;
    }
}
