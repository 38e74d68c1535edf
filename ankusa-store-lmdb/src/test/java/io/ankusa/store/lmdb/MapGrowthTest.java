package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.COUNTS;
import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static io.ankusa.store.lmdb.TestStores.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.WriteBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The map starts small and grows: whole batches replayed, nothing partial, nothing doubled. */
class MapGrowthTest {

    private static final int ONE_MIB = 1 << 20;
    private static final int VALUE_BYTES = 4000; // one overflow page each
    private static final int ROWS = 2200; // a little over 8 MiB of values

    @TempDir
    Path dir;

    @Test
    void aBatchEightTimesTheMapCommitsWholeAndItsMergesCountOnce() {
        try (Store store = TestStores.open(tinyMap())) {
            store.commit(eightMiB().merge(COUNTS, utf8("batches"), 1), Durability.SYNC);

            assertThat(store.counter(COUNTS, utf8("batches"))).isEqualTo(1);
            assertAllRowsThere(store);
        }
        try (Store reopened = TestStores.open(StoreOptions.existing(dir, TestStores.FAMILIES)
                .with(LmdbSettings.MAP_SIZE, String.valueOf(ONE_MIB)))) {
            assertThat(reopened.counter(COUNTS, utf8("batches"))).isEqualTo(1);
            assertAllRowsThere(reopened);
            reopened.commit(new WriteBatch().put(PLAIN, utf8("more"), new byte[VALUE_BYTES]), Durability.SYNC);
        }
    }

    @Test
    void aBatchThatFailsAfterTheMapGrewLeavesNothing() {
        try (Store store = TestStores.open(tinyMap())) {
            WriteBatch failsLast = eightMiB().merge(COUNTS, utf8("batches"), 1)
                    .put(PLAIN, new byte[LmdbStore.MAX_KEY_BYTES + 1], utf8("too long a key"));

            assertThatThrownBy(() -> store.commit(failsLast, Durability.SYNC))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));

            assertThat(store.counter(COUNTS, utf8("batches"))).isZero();
            try (Scan scan = store.scan(PLAIN, KeyRange.all())) {
                assertThat(scan.hasNext()).isFalse();
            }
        }
    }

    @Test
    void aResizeWaitsForAScanClosedByAnotherThread() throws Exception {
        try (Store store = TestStores.open(tinyMap().with(LmdbSettings.RESIZE_WAIT_MILLIS, "600000"))) {
            store.commit(new WriteBatch().put(PLAIN, utf8("seen"), utf8("1")), Durability.SYNC);
            Scan scan = store.scan(PLAIN, KeyRange.all());

            CompletableFuture<Void> commit = CompletableFuture.runAsync(
                    () -> store.commit(eightMiB(), Durability.SYNC));
            assertThat(scan.next().key()).isEqualTo(utf8("seen"));
            scan.close();

            commit.get(5, TimeUnit.MINUTES);
            assertAllRowsThere(store);
        }
    }

    @Test
    void aScanKeptOpenAcrossTheCommitFailsItWithNothingWritten() {
        try (Store store = TestStores.open(tinyMap().with(LmdbSettings.RESIZE_WAIT_MILLIS, "50"))) {
            store.commit(new WriteBatch().put(PLAIN, utf8("seen"), utf8("1")), Durability.SYNC);
            WriteBatch big = eightMiB().merge(COUNTS, utf8("batches"), 1);
            try (Scan scan = store.scan(PLAIN, KeyRange.all())) {
                assertThatThrownBy(() -> store.commit(big, Durability.SYNC))
                        .isInstanceOfSatisfying(StoreException.class, e -> {
                            assertThat(e.reason()).isEqualTo(StoreError.IO);
                            assertThat(e).hasMessageContaining("full").hasMessageContaining("nothing was written");
                        });
                assertThat(scan.next().key()).isEqualTo(utf8("seen"));
                assertThat(scan.hasNext()).isFalse();
            }
            assertThat(store.counter(COUNTS, utf8("batches"))).isZero();

            store.commit(big, Durability.SYNC);
            assertThat(store.counter(COUNTS, utf8("batches"))).isEqualTo(1);
            assertAllRowsThere(store);
        }
    }

    @Test
    void theMapGrowsAheadOfNeedWhileNoReaderIsOpen() {
        // A resize can never wait here: only growth ahead of need, after the reader-free commits,
        // leaves room for the commits made while a scan is open.
        try (Store store = TestStores.open(tinyMap().with(LmdbSettings.RESIZE_WAIT_MILLIS, "0"))) {
            for (int i = 0; i < 64; i++) {
                store.commit(new WriteBatch().put(PLAIN, utf8("free" + i), new byte[32 * 1024]), Durability.ASYNC);
                try (Scan open = store.scan(PLAIN, KeyRange.all())) {
                    assertThat(open.hasNext()).isTrue();
                    store.commit(new WriteBatch().put(PLAIN, utf8("held" + i), new byte[32 * 1024]),
                            Durability.ASYNC);
                }
            }
            assertThat(TestStores.keys(store.scan(PLAIN, KeyRange.all()))).hasSize(128);
        }
    }

    @Test
    void aStoreReopenedWithASmallerMapSettingKeepsRoomForItsData() throws Exception {
        try (Store store = TestStores.open(tinyMap())) {
            store.commit(eightMiB(), Durability.SYNC);
        }
        long fileBytes = Files.size(dir.resolve("data.mdb"));
        try (Store reopened = TestStores.open(tinyMap().with(LmdbSettings.RESIZE_WAIT_MILLIS, "0"));
                Scan open = reopened.scan(PLAIN, KeyRange.all())) {
            assertThat(open.hasNext()).isTrue();
            // With an open scan the map cannot grow now; it must already have room for a batch this size.
            reopened.commit(new WriteBatch().put(PLAIN, utf8("after"), new byte[(int) (fileBytes / 4)]),
                    Durability.SYNC);
        }
    }

    private StoreOptions tinyMap() {
        return TestStores.options(dir).with(LmdbSettings.MAP_SIZE, String.valueOf(ONE_MIB));
    }

    private static WriteBatch eightMiB() {
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < ROWS; i++) {
            batch.put(PLAIN, key(i), value(i));
        }
        return batch;
    }

    private static void assertAllRowsThere(Store store) {
        int seen = 0;
        try (Scan scan = store.scan(PLAIN, KeyRange.prefix(utf8("row")))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                assertThat(kv.key()).isEqualTo(key(seen));
                assertThat(kv.value()).isEqualTo(value(seen));
                seen++;
            }
        }
        assertThat(seen).isEqualTo(ROWS);
    }

    private static byte[] key(int i) {
        return utf8(String.format("row%06d", i));
    }

    private static byte[] value(int i) {
        byte[] value = new byte[VALUE_BYTES];
        Arrays.fill(value, (byte) i);
        return value;
    }
}
