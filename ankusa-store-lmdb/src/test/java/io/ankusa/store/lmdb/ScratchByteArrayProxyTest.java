package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store hands LMDB its keys and values through two reused native buffers
 * per thread ({@link ScratchByteArrayProxy}) instead of a native allocation each; what goes in
 * must come out exactly, whatever sizes came before on the same thread.
 */
class ScratchByteArrayProxyTest {

    @TempDir
    Path dir;

    @Test
    void keysAndValuesOfEverySizeRoundTripInAnyOrderOfSizes() {
        Random random = new Random(14);
        // Sizes growing past the buffers' first capacity, then shrinking under what they hold.
        int[] valueSizes = {0, 1, 255, 256, 257, 4_096, 300_000, 17, 0, 65_537, 3, 1_000_000, 2};
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        try (Store store = TestStores.open(dir)) {
            for (int i = 0; i < valueSizes.length; i++) {
                byte[] key = new byte[1 + random.nextInt(LmdbStore.MAX_KEY_BYTES)];
                random.nextBytes(key);
                key[0] = (byte) i; // distinct, in order
                byte[] value = new byte[valueSizes[i]];
                random.nextBytes(value);
                keys.add(key);
                values.add(value);
                // One batch per pair: each put hands a key and a value in, after the last pair's.
                store.commit(new WriteBatch().put(PLAIN, key, value), Durability.ASYNC);
            }
            assertReadBack(store, keys, values);
        }
        try (Store store = TestStores.open(dir)) {
            assertReadBack(store, keys, values);
        }
    }

    private static void assertReadBack(Store store, List<byte[]> keys, List<byte[]> values) {
        for (int i = keys.size() - 1; i >= 0; i--) { // sizes in the other order than written
            assertThat(store.get(PLAIN, keys.get(i))).as("value %d", i).hasValue(values.get(i));
        }
        List<Optional<byte[]>> all = store.multiGet(PLAIN, keys);
        for (int i = 0; i < keys.size(); i++) {
            assertThat(all.get(i)).as("multiGet value %d", i).hasValue(values.get(i));
        }
        try (Scan scan = store.scan(PLAIN, KeyRange.of(keys.get(2), keys.get(9)))) {
            for (int i = 2; i < 9; i++) {
                KeyValue entry = scan.next();
                assertThat(entry.key()).as("scan key %d", i).isEqualTo(keys.get(i));
                assertThat(entry.value()).as("scan value %d", i).isEqualTo(values.get(i));
            }
            assertThat(scan.hasNext()).isFalse();
        }
    }

    @Test
    void threadsReadingAndWritingAtOnceEachGetTheirOwnBytes() throws Exception {
        int threads = 4;
        int rows = 500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (Store store = TestStores.open(dir)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < rows; i++) {
                        byte[] key = TestStores.bytes(thread, i >> 8, i & 0xFF);
                        byte[] value = new byte[1 + (i * 37 + thread * 101) % 2_000];
                        Arrays.fill(value, (byte) (thread * 31 + i));
                        store.commit(new WriteBatch().put(PLAIN, key, value), Durability.ASYNC);
                        assertThat(store.get(PLAIN, key)).hasValue(value);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
            for (int t = 0; t < threads; t++) {
                for (int i = 0; i < rows; i++) {
                    byte[] value = new byte[1 + (i * 37 + t * 101) % 2_000];
                    Arrays.fill(value, (byte) (t * 31 + i));
                    assertThat(store.get(PLAIN, TestStores.bytes(t, i >> 8, i & 0xFF))).hasValue(value);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
