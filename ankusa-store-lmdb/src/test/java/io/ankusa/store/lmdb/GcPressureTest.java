package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Direction;
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
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys and values survive garbage collection during native calls. lmdbjava copies each byte[]
 * into native memory owned by a Java object; before 0.9.2 nothing kept that object alive across
 * the call, and a collection at the wrong moment crashed the JVM or wrote freed memory (lmdbjava
 * #252). With a thread collecting without pause, that shows within seconds.
 */
class GcPressureTest {

    private static final int BATCHES = 4;
    private static final int PUTS_PER_BATCH = 2_000;

    @TempDir
    Path dir;

    @Test
    void whatIsWrittenUnderConstantCollectionReadsBackExactly() throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        Thread collector = new Thread(() -> {
            while (running.get()) {
                System.gc();
            }
        }, "gc-pressure");
        collector.setDaemon(true);
        try (Store store = TestStores.open(dir)) { // opened first: loading the native binding under constant GC is slow
            collector.start();
            for (int batch = 0; batch < BATCHES; batch++) {
                WriteBatch writes = new WriteBatch();
                SplittableRandom random = new SplittableRandom(batch);
                for (int i = 0; i < PUTS_PER_BATCH; i++) {
                    writes.put(PLAIN, key(batch, i), value(random));
                }
                writes.delete(PLAIN, TestStores.utf8("absent")).deleteRange(PLAIN, key(batch, 0), key(batch, 10));
                store.commit(writes, Durability.ASYNC);

                List<byte[]> keys = new ArrayList<>();
                for (int i = 0; i < PUTS_PER_BATCH; i++) {
                    keys.add(key(batch, i));
                }
                List<Optional<byte[]>> read = store.multiGet(PLAIN, keys);
                random = new SplittableRandom(batch);
                for (int i = 0; i < PUTS_PER_BATCH; i++) {
                    byte[] expected = value(random);
                    if (i < 10) {
                        assertThat(read.get(i)).as("deleted row %d of batch %d", i, batch).isEmpty();
                    } else if (!read.get(i).map(v -> Arrays.equals(v, expected)).orElse(false)) {
                        assertThat(read.get(i)).as("row %d of batch %d", i, batch).contains(expected);
                    }
                }
                try (Scan scan = store.scan(PLAIN, KeyRange.prefix(key(batch, -1)), Direction.REVERSE)) {
                    int seen = 0;
                    while (scan.hasNext()) {
                        KeyValue kv = scan.next();
                        assertThat(kv.key()).isEqualTo(key(batch, PUTS_PER_BATCH - 1 - seen));
                        seen++;
                    }
                    assertThat(seen).isEqualTo(PUTS_PER_BATCH - 10);
                }
            }
        } finally {
            running.set(false);
            collector.join();
        }
    }

    /** {@code b<batch>/<row>}, rows zero-padded; row -1 gives the batch prefix. */
    private static byte[] key(int batch, int row) {
        return TestStores.utf8(row < 0 ? String.format("b%02d/", batch) : String.format("b%02d/%06d", batch, row));
    }

    private static byte[] value(SplittableRandom random) {
        byte[] value = new byte[1 + random.nextInt(300)];
        random.nextBytes(value);
        return value;
    }
}
