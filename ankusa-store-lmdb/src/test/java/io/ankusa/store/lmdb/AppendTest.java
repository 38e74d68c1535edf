package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Puts of keys past a family's last key are appends ({@code MDB_APPEND}): keys written in
 * increasing order fill their pages, and a put that is not past
 * the end (a key between stored ones, an overwrite, keys out of order within a batch) is still a
 * plain put with the same result.
 */
class AppendTest {

    private static final int BATCHES = 100;
    private static final int KEYS_PER_BATCH = 100;
    private static final int VALUE_BYTES = 300;

    @TempDir
    Path dir;

    @Test
    void keysInIncreasingOrderFillTheirPages() throws Exception {
        try (Store store = TestStores.open(dir)) {
            for (int b = 0; b < BATCHES; b++) {
                WriteBatch batch = new WriteBatch();
                for (int i = 0; i < KEYS_PER_BATCH; i++) {
                    batch.put(PLAIN, key(b * KEYS_PER_BATCH + i), value(b * KEYS_PER_BATCH + i));
                }
                store.commit(batch, Durability.ASYNC);
            }
        }
        // 10 000 values of 300 B (3.0 MB): the file holds 3.49 MB with appends, 3.80 MB with plain
        // puts (LMDB's split of the last page leaves it partly empty). Single-threaded and without
        // readers, LMDB's page allocation is the same in every run.
        long payload = (long) BATCHES * KEYS_PER_BATCH * VALUE_BYTES;
        assertThat(Files.size(dir.resolve(LmdbStore.DATA_FILE))).isLessThan(payload * 6 / 5);
    }

    @Test
    void putsNotPastTheEndAreStillWritten() {
        try (Store store = TestStores.open(dir)) {
            WriteBatch first = new WriteBatch();
            for (int i = 0; i < 50; i += 2) {
                first.put(PLAIN, key(i), value(i));
            }
            store.commit(first, Durability.ASYNC);
            WriteBatch mixed = new WriteBatch()
                    .put(PLAIN, key(100), value(100)) // past the end
                    .put(PLAIN, key(51), value(51)) // between stored keys, after an append in the same batch
                    .put(PLAIN, key(10), value(-10)) // an overwrite
                    .put(PLAIN, key(99), value(99))
                    .put(PLAIN, key(101), value(101));
            store.commit(mixed, Durability.ASYNC);
            store.commit(new WriteBatch().delete(PLAIN, key(101)).delete(PLAIN, key(100)), Durability.ASYNC);
            store.commit(new WriteBatch().put(PLAIN, key(60), value(60)), Durability.SYNC); // past the end again
        }
        try (Store store = TestStores.open(dir)) {
            List<KeyValue> rows = TestStores.drain(store.scan(PLAIN, KeyRange.all(), Direction.FORWARD));
            assertThat(rows).extracting(kv -> ByteBuffer.wrap(kv.key()).getInt())
                    .containsExactly(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40,
                            42, 44, 46, 48, 51, 60, 99);
            assertThat(store.get(PLAIN, key(10))).hasValueSatisfying(v -> assertThat(v).isEqualTo(value(-10)));
            assertThat(store.get(PLAIN, key(51))).hasValueSatisfying(v -> assertThat(v).isEqualTo(value(51)));
        }
    }

    private static byte[] key(int n) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(n).array();
    }

    private static byte[] value(int n) {
        byte[] v = new byte[VALUE_BYTES];
        ByteBuffer.wrap(v).putInt(n);
        return v;
    }
}
