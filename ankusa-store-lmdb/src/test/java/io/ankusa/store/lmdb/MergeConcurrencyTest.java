package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.COUNTS;
import static io.ankusa.store.lmdb.TestStores.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Merges are exact under concurrent committers: LMDB's single writer applies read-add-put alone. */
class MergeConcurrencyTest {

    private static final int THREADS = 8;
    private static final int MERGES_PER_THREAD = 10_000;
    private static final int ROWS = 4;

    @TempDir
    Path dir;

    @Test
    void eightThreadsOfMixedSignMergesSumExactly() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (Store store = TestStores.open(dir)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<long[]>> sums = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                long seed = 1_000 + t;
                sums.add(pool.submit(() -> mergeFrom(store, seed, start)));
            }
            start.countDown();
            long[] expected = new long[ROWS];
            for (Future<long[]> sum : sums) {
                long[] part = sum.get();
                for (int row = 0; row < ROWS; row++) {
                    expected[row] += part[row];
                }
            }
            assertThat(store.counters(COUNTS, rows())).containsExactly(expected);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Commits this thread's merges in batches of 1 to 100 ops; returns what it added per row. */
    private static long[] mergeFrom(Store store, long seed, CountDownLatch start) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(seed);
        long[] added = new long[ROWS];
        start.await();
        int left = MERGES_PER_THREAD;
        while (left > 0) {
            int size = Math.min(left, 1 + random.nextInt(100));
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < size; i++) {
                int row = random.nextInt(ROWS);
                long delta = random.nextLong(-1_000_000, 1_000_001);
                batch.merge(COUNTS, row(row), delta);
                added[row] += delta;
            }
            store.commit(batch, random.nextInt(8) == 0 ? Durability.SYNC : Durability.ASYNC);
            left -= size;
        }
        return added;
    }

    private static List<byte[]> rows() {
        List<byte[]> rows = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            rows.add(row(row));
        }
        return rows;
    }

    private static byte[] row(int row) {
        return utf8("row" + row);
    }
}
