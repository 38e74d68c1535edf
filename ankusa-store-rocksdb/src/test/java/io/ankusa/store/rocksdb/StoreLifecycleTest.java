package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.COUNTS;
import static io.ankusa.store.rocksdb.TestStores.FAMILIES;
import static io.ankusa.store.rocksdb.TestStores.ITEMS;
import static io.ankusa.store.rocksdb.TestStores.create;
import static io.ankusa.store.rocksdb.TestStores.drain;
import static io.ankusa.store.rocksdb.TestStores.key;
import static io.ankusa.store.rocksdb.TestStores.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Durability;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreLockedException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.WriteBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Open, lock, settings, checkpoint and close, including close racing other threads. */
class StoreLifecycleTest {

    @TempDir
    Path dir;

    @Test
    void providerIsFoundByName() {
        assertThat(Stores.provider("rocksdb")).get().isInstanceOf(RocksStoreProvider.class);
        try (Store store = Stores.open("rocksdb", StoreOptions.create(dir, FAMILIES))) {
            assertThat(store.backend()).isEqualTo("rocksdb");
            assertThat(store.directory()).isEqualTo(dir);
            assertThat(store.families()).isEqualTo(FAMILIES);
        }
    }

    @Test
    void secondOpenIsRefusedUntilTheFirstCloses() {
        try (RocksStore first = create(dir)) {
            assertThatThrownBy(() -> create(dir)).isInstanceOf(StoreLockedException.class);
            first.commit(new WriteBatch().put(ITEMS, key("k"), key("v")), Durability.SYNC);
        }
        try (RocksStore again = open(StoreOptions.existing(dir, FAMILIES))) {
            assertThat(again.get(ITEMS, key("k"))).isPresent();
        }
    }

    @Test
    void missingStoreWithoutCreateIsNotFoundAndNothingIsCreated() throws Exception {
        Path absent = dir.resolve("absent");
        assertThatThrownBy(() -> open(StoreOptions.existing(absent, FAMILIES)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.NOT_FOUND));
        assertThat(absent).doesNotExist();
        Path empty = Files.createDirectory(dir.resolve("empty"));
        assertThatThrownBy(() -> open(StoreOptions.existing(empty, FAMILIES)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.NOT_FOUND));
        try (var files = Files.list(empty)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void unknownOrMalformedSettingsAreRefused() {
        StoreOptions base = StoreOptions.create(dir, FAMILIES);
        assertThatThrownBy(() -> open(base.with("rocksdb.blockCacheSize", "1")))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT))
                .hasMessageContaining("rocksdb.blockCacheSize").hasMessageContaining("rocksdb.blockCacheBytes");
        assertThatThrownBy(() -> open(base.with("lmdb.mapSize", "1")))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
        assertThatThrownBy(() -> open(base.with(RocksSettings.BLOCK_CACHE_BYTES, "lots")))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
        assertThatThrownBy(() -> open(base.with(RocksSettings.MAX_BACKGROUND_JOBS, "0")))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
        assertThat(dir.resolve("CURRENT")).as("refused before anything is created").doesNotExist();
        try (RocksStore store = open(base.with(RocksSettings.BLOCK_CACHE_BYTES, "1048576")
                .with(RocksSettings.COUNTER_MAX_SUCCESSIVE_MERGES, "16")
                .with(RocksSettings.MAX_BACKGROUND_JOBS, "4"))) {
            store.commit(new WriteBatch().merge(COUNTS, key("n"), 1), Durability.SYNC);
        }
    }

    @Test
    void asyncCommitsSurviveACleanClose() {
        try (RocksStore store = create(dir)) {
            store.commit(new WriteBatch().put(ITEMS, key("a"), key("1")).merge(COUNTS, key("n"), 2), Durability.ASYNC);
            store.commit(new WriteBatch(), Durability.SYNC);
            store.commit(new WriteBatch().put(ITEMS, key("b"), key("2")), Durability.ASYNC);
        }
        try (RocksStore store = open(StoreOptions.existing(dir, FAMILIES))) {
            assertThat(drain(store.scan(ITEMS, KeyRange.all()))).hasSize(2);
            assertThat(store.counter(COUNTS, key("n"))).isEqualTo(2);
        }
    }

    @Test
    void checkpointOpensAsAStoreWithItsFamilyKinds() {
        Path copy = dir.resolve("backups").resolve("one");
        try (RocksStore store = create(dir.resolve("live"))) {
            store.commit(new WriteBatch().put(ITEMS, key("a"), key("1")).merge(COUNTS, key("n"), 7), Durability.ASYNC);
            store.checkpoint(copy);
            store.commit(new WriteBatch().put(ITEMS, key("b"), key("2")).merge(COUNTS, key("n"), 1), Durability.SYNC);
            assertThatThrownBy(() -> store.checkpoint(copy)).isInstanceOfSatisfying(StoreException.class,
                    e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
        }
        assertThatThrownBy(() -> open(StoreOptions.existing(copy,
                List.of(TestStores.ITEMS_PLAIN, FamilySpec.plain(COUNTS)))))
                .as("the checkpoint carries the family catalog")
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.FAMILY_MISMATCH));
        try (RocksStore restored = open(StoreOptions.existing(copy, FAMILIES))) {
            assertThat(drain(restored.scan(ITEMS, KeyRange.all()))).hasSize(1);
            assertThat(restored.counter(COUNTS, key("n"))).isEqualTo(7);
        }
    }

    @Test
    void everyCallAfterCloseThrowsStoreClosedAndCloseIsIdempotent() {
        RocksStore store = create(dir);
        store.close();
        assertThatCode(store::close).doesNotThrowAnyException();
        List<Runnable> calls = List.of(
                () -> store.get(ITEMS, key("k")),
                () -> store.multiGet(ITEMS, List.of(key("k"))),
                () -> store.counter(COUNTS, key("k")),
                () -> store.counters(COUNTS, List.of(key("k"))),
                () -> store.scan(ITEMS, KeyRange.all()),
                () -> store.commit(new WriteBatch().put(ITEMS, key("k"), key("v")), Durability.SYNC),
                () -> store.commit(new WriteBatch(), Durability.SYNC),
                () -> store.checkpoint(dir.resolve("copy")));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run).isInstanceOf(StoreClosedException.class);
        }
        // The directory lock is released: the store opens again.
        open(StoreOptions.existing(dir, FAMILIES)).close();
    }

    @Test
    void closeInvalidatesOpenScans() {
        RocksStore store = create(dir);
        store.commit(new WriteBatch().put(ITEMS, key("a"), key("1")).put(ITEMS, key("b"), key("2")), Durability.SYNC);
        Scan scan = store.scan(ITEMS, KeyRange.all());
        assertThat(scan.next().key()).isEqualTo(key("a"));
        store.close();
        assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(scan::next).isInstanceOf(StoreClosedException.class);
        assertThatCode(scan::close).doesNotThrowAnyException();
    }

    /**
     * Readers, scanners and committers run until the store closes under them: each ends with
     * {@link StoreClosedException}, nothing else, and the JVM survives. Latches, not sleeps, make
     * sure close lands while they are all busy.
     */
    @Test
    void closeRacingReadsScansAndCommitsEndsEachWithStoreClosed() throws Exception {
        for (int round = 0; round < 10; round++) {
            Path storeDir = dir.resolve("round" + round);
            RocksStore store = create(storeDir);
            store.commit(new WriteBatch().put(ITEMS, key("a"), key("1")).put(ITEMS, key("b"), key("2")),
                    Durability.SYNC);
            int workers = 4;
            CountDownLatch busy = new CountDownLatch(workers);
            List<AtomicReference<Throwable>> endings = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int kind = w;
                AtomicReference<Throwable> ending = new AtomicReference<>();
                endings.add(ending);
                Thread thread = new Thread(() -> {
                    try {
                        for (long i = 0; ; i++) {
                            work(store, kind, i);
                            if (i == 50) {
                                busy.countDown();
                            }
                        }
                    } catch (Throwable t) {
                        busy.countDown();
                        ending.set(t);
                    }
                });
                threads.add(thread);
                thread.start();
            }
            busy.await();
            store.close();
            for (Thread thread : threads) {
                thread.join();
            }
            for (AtomicReference<Throwable> ending : endings) {
                assertThat(ending.get()).isInstanceOf(StoreClosedException.class);
            }
        }
    }

    private static void work(RocksStore store, int kind, long i) {
        switch (kind) {
            case 0 -> store.commit(new WriteBatch().put(ITEMS, key("k" + (i % 100)), key("v" + i))
                    .merge(COUNTS, key("n"), 1), i % 10 == 0 ? Durability.SYNC : Durability.ASYNC);
            case 1 -> store.multiGet(ITEMS, List.of(key("a"), key("b"), key("k1")));
            case 2 -> store.counters(COUNTS, List.of(key("n"), key("m")));
            default -> {
                // Holds a scan open across calls so that close has to invalidate it.
                try (Scan scan = store.scan(ITEMS, KeyRange.all())) {
                    while (scan.hasNext()) {
                        scan.next();
                    }
                }
            }
        }
    }
}
