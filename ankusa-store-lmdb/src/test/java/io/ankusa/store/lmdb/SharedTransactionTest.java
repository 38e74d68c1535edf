package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.COUNTS;
import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static io.ankusa.store.lmdb.TestStores.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committers that share a write transaction ({@link LmdbStore}'s group of waiting batches) each get
 * their own answer: a batch LMDB refuses (a key over its limit, refused inside the transaction)
 * fails alone and leaves nothing behind, every other batch of the same moment is written whole, and
 * a synced commit returns after a sync that covers it.
 */
class SharedTransactionTest {

    private static final int THREADS = 6;
    private static final int COMMITS_PER_THREAD = 400;

    @TempDir
    Path dir;

    @Test
    void aRefusedBatchFailsAloneWhileOthersShareItsTransaction() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (Store store = TestStores.open(dir)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> refusals = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                refusals.add(pool.submit(() -> commitFrom(store, thread, start)));
            }
            start.countDown();
            int refused = 0;
            for (Future<Integer> r : refusals) {
                refused += r.get();
            }
            // Every third commit of the odd threads carries a key LMDB refuses.
            assertThat(refused).isEqualTo(THREADS / 2 * ((COMMITS_PER_THREAD + 2) / 3));
            for (int t = 0; t < THREADS; t++) {
                for (int i = 0; i < COMMITS_PER_THREAD; i++) {
                    boolean bad = t % 2 == 1 && i % 3 == 0;
                    assertThat(store.get(PLAIN, utf8("t" + t + "-" + i)).map(TestStores::text))
                            .as("thread %d commit %d", t, i).isEqualTo(bad ? Optional.empty() : Optional.of("v" + i));
                }
                long good = t % 2 == 1 ? COMMITS_PER_THREAD - (COMMITS_PER_THREAD + 2) / 3 : COMMITS_PER_THREAD;
                assertThat(store.counter(COUNTS, utf8("c" + t))).isEqualTo(good);
            }
        } finally {
            pool.shutdownNow();
        }
        try (Store reopened = TestStores.open(dir)) {
            assertThat(reopened.counter(COUNTS, utf8("c0"))).isEqualTo(COMMITS_PER_THREAD);
        }
    }

    /** Commits this thread's batches (every other one synced); returns how many were refused. */
    private static int commitFrom(Store store, int thread, CountDownLatch start) throws InterruptedException {
        start.await();
        int refused = 0;
        for (int i = 0; i < COMMITS_PER_THREAD; i++) {
            WriteBatch batch = new WriteBatch().put(PLAIN, utf8("t" + thread + "-" + i), utf8("v" + i))
                    .merge(COUNTS, utf8("c" + thread), 1);
            if (thread % 2 == 1 && i % 3 == 0) {
                batch.put(PLAIN, new byte[LmdbStore.MAX_KEY_BYTES + 1], utf8("too long"));
            }
            try {
                store.commit(batch, i % 2 == 0 ? Durability.SYNC : Durability.ASYNC);
            } catch (StoreException e) {
                assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT);
                refused++;
            }
        }
        return refused;
    }
}
