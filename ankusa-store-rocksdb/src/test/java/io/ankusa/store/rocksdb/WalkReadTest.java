package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.ITEMS;
import static io.ankusa.store.rocksdb.TestStores.create;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Durability;
import io.ankusa.store.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RocksStore#multiGet} through {@link RocksWalkRead} reads what a {@code get} of each key
 * reads, in the caller's order: keys close together, keys far apart (the walk runs out of seeks and
 * hands the rest to a {@code MultiGet}), absent keys between and after present ones, duplicates,
 * deleted keys, values longer than a {@code MultiGet} slot, with some of the store in a table file
 * and the rest in the memtable.
 */
class WalkReadTest {

    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return ByteBuffer.allocate(5).put((byte) 'k').putInt(i).array();
    }

    @Test
    void readsWhatEachGetReads() {
        Random random = new Random(7);
        try (RocksStore store = create(dir.resolve("store"))) {
            WriteBatch first = new WriteBatch();
            for (int i = 0; i < 3_000; i += 2) {
                first.put(ITEMS, key(i), value(random, i));
            }
            store.commit(first, Durability.ASYNC);
            store.checkpoint(dir.resolve("flushed")); // flushes: these rows are now in a table file
            WriteBatch second = new WriteBatch();
            for (int i = 1; i < 3_000; i += 6) {
                second.put(ITEMS, key(i), value(random, i));
            }
            for (int i = 100; i < 200; i += 2) {
                second.delete(ITEMS, key(i));
            }
            store.commit(second, Durability.ASYNC);

            for (int round = 0; round < 200; round++) {
                List<byte[]> keys = new ArrayList<>();
                int n = 8 + random.nextInt(120);
                int at = random.nextInt(3_200);
                for (int i = 0; i < n; i++) {
                    int pick = random.nextInt(10);
                    at = pick < 6 ? at + 1 : pick < 9 ? random.nextInt(3_200) : at; // runs, jumps, repeats
                    keys.add(key(at));
                }
                if (random.nextBoolean()) {
                    Collections.shuffle(keys, random);
                }
                List<Optional<byte[]>> read = store.multiGet(ITEMS, keys);
                assertThat(read).hasSize(keys.size());
                for (int i = 0; i < keys.size(); i++) {
                    Optional<byte[]> expected = store.get(ITEMS, keys.get(i));
                    assertThat(read.get(i).isPresent()).as("round %d, key %d present", round, i).isEqualTo(expected.isPresent());
                    if (expected.isPresent()) {
                        assertThat(read.get(i).orElseThrow()).as("round %d, key %d", round, i).isEqualTo(expected.get());
                    }
                }
            }
        }
    }

    /** Mostly small values, one in ten longer than a {@code MultiGet} slot. */
    private static byte[] value(Random random, int i) {
        byte[] value = new byte[i % 10 == 0 ? RocksStore.VALUE_SLOT_BYTES + 100 : 50];
        random.nextBytes(value);
        return value;
    }
}
