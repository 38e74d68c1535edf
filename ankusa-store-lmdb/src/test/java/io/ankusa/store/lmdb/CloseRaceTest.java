package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.COUNTS;
import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static io.ankusa.store.lmdb.TestStores.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads, scans and commits racing {@link Store#close()} end with {@link StoreClosedException},
 * never another error (and never a crash: a read into an unmapped file would kill the JVM).
 */
class CloseRaceTest {

    private static final int ROUNDS = 20;
    private static final int WORKERS = 6;

    @TempDir
    Path dir;

    @Test
    void everyOperationRacingCloseEitherWorksOrSaysClosed() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Store store = TestStores.open(dir.resolve("r" + round));
                WriteBatch fill = new WriteBatch();
                for (int i = 0; i < 200; i++) {
                    fill.put(PLAIN, utf8("k" + i), new byte[100]).merge(COUNTS, utf8("c" + (i % 8)), i);
                }
                store.commit(fill, Durability.ASYNC);

                CountDownLatch working = new CountDownLatch(WORKERS);
                List<Future<Throwable>> outcomes = new ArrayList<>();
                for (int w = 0; w < WORKERS; w++) {
                    int worker = w;
                    outcomes.add(pool.submit(() -> untilClosed(store, worker, working)));
                }
                working.await();
                store.close();
                for (Future<Throwable> outcome : outcomes) {
                    assertThat(outcome.get(1, TimeUnit.MINUTES)).isInstanceOf(StoreClosedException.class);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs one kind of operation until the store says it is closed; returns what stopped it. */
    private static Throwable untilClosed(Store store, int worker, CountDownLatch working) {
        boolean counted = false;
        try {
            for (long i = 0; ; i++) {
                switch (worker) {
                    case 0 -> store.get(PLAIN, utf8("k" + (i % 200)));
                    case 1 -> store.multiGet(PLAIN, List.of(utf8("k1"), utf8("k2"), utf8("nope")));
                    case 2 -> store.counters(COUNTS, List.of(utf8("c1"), utf8("c7")));
                    case 3 -> store.commit(new WriteBatch().merge(COUNTS, utf8("c0"), 1), Durability.ASYNC);
                    default -> {
                        try (Scan scan = store.scan(PLAIN, KeyRange.all())) {
                            while (scan.hasNext()) {
                                scan.next();
                            }
                        }
                    }
                }
                if (!counted) {
                    counted = true;
                    working.countDown();
                }
            }
        } catch (Throwable stopped) {
            if (!counted) {
                working.countDown();
            }
            return stopped;
        }
    }
}
