package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.COUNTS;
import static io.ankusa.store.rocksdb.TestStores.FAMILIES;
import static io.ankusa.store.rocksdb.TestStores.ITEMS;
import static io.ankusa.store.rocksdb.TestStores.create;
import static io.ankusa.store.rocksdb.TestStores.key;
import static io.ankusa.store.rocksdb.TestStores.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.WriteBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Native objects are freed: many scan cycles and many store open/close cycles leave the resident
 * set and the open file descriptors where a warm-up left them. Counts, not timings: the test
 * JVM's heap is fixed and pre-touched and only C1 compiles (see the module POM), so resident
 * growth after the warm-up is native growth: here it is ~0 MiB, while leaking only each scan's
 * read options and bound slices adds ~25 MiB per 100 000 scans, and leaking the iterators ~400;
 * 300 open/close cycles grow it by ~1 MiB, while leaking the option objects adds ~15 MiB.
 * Linux only ({@code /proc/self}).
 */
class NativeLeakTest {

    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    @BeforeEach
    void linuxOnly() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs /proc/self");
    }

    @Test
    void scanCyclesDoNotGrowNativeMemory() {
        try (RocksStore store = create(dir)) {
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < 100; i++) {
                batch.put(ITEMS, key(String.format("k%03d", i)), new byte[100]);
            }
            store.commit(batch, Durability.SYNC);
            scanCycles(store, 10_000);
            long before = residentBytes();
            scanCycles(store, 100_000);
            long growth = residentBytes() - before;
            System.out.printf("NativeLeakTest: 100000 scan cycles grew RSS by %.1f MiB%n", growth / (double) MIB);
            assertThat(store.openScanCount()).isZero();
            assertThat(growth).as("RSS growth over 100 000 scans").isLessThan(8 * MIB);
        }
    }

    private static void scanCycles(RocksStore store, int cycles) {
        for (int i = 0; i < cycles; i++) {
            KeyRange range = KeyRange.of(key(String.format("k%03d", i % 90)), key(String.format("k%03d", i % 90 + 5)));
            try (Scan scan = store.scan(ITEMS, range, i % 2 == 0 ? Direction.FORWARD : Direction.REVERSE)) {
                // Half the scans are left part-read, so close (not exhaustion) must free them.
                int limit = i % 4 < 2 ? 2 : Integer.MAX_VALUE;
                for (int n = 0; n < limit && scan.hasNext(); n++) {
                    scan.next();
                }
            }
        }
    }

    @Test
    void openCloseCyclesReleaseFilesAndMemory() throws IOException {
        Path storeDir = dir.resolve("store");
        create(storeDir).close();
        openCloseCycles(storeDir, 20);
        long filesBefore = openFileDescriptors();
        long before = residentBytes();
        openCloseCycles(storeDir, 300);
        long growth = residentBytes() - before;
        long files = openFileDescriptors();
        System.out.printf("NativeLeakTest: 300 open/close cycles grew RSS by %.1f MiB, fds %d -> %d%n",
                growth / (double) MIB, filesBefore, files);
        // A leaked store keeps several files open per cycle (a planted leak went from 204 to 3 016 over
        // 200 cycles); the JVM itself may open a descriptor or two meanwhile (class loading, a timer).
        assertThat(files).as("open file descriptors").isLessThanOrEqualTo(filesBefore + 8);
        assertThat(growth).as("RSS growth over 300 open/close cycles").isLessThan(6 * MIB);
    }

    private static void openCloseCycles(Path storeDir, int cycles) {
        for (int i = 0; i < cycles; i++) {
            try (RocksStore store = open(StoreOptions.existing(storeDir, FAMILIES))) {
                store.commit(new WriteBatch().put(ITEMS, key("k" + (i % 10)), new byte[64])
                        .merge(COUNTS, key("n"), 1), Durability.ASYNC);
                store.counters(COUNTS, List.of(key("n"), key("m")));
                try (Scan scan = store.scan(ITEMS, KeyRange.all())) {
                    scan.hasNext(); // left open on purpose half the time: close must free it
                }
                if (i % 2 == 0) {
                    store.scan(ITEMS, KeyRange.all()).hasNext();
                }
            }
        }
    }

    private static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }

    private static long openFileDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
