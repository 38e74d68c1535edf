package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.FAMILIES;
import static io.ankusa.store.rocksdb.TestStores.ITEMS;
import static io.ankusa.store.rocksdb.TestStores.create;
import static io.ankusa.store.rocksdb.TestStores.key;
import static io.ankusa.store.rocksdb.TestStores.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Durability;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.WriteBatch;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, on a real full file system: a tmpfs of a few MiB mounted for the test (root
 * only; elsewhere the tests are skipped with the reason) and filled with a file until the kernel
 * answers ENOSPC. Covers what RocksDB does with a real "no space left on device": the typed error,
 * the resume once space is freed, and an open with little room left. (Not covered: a disk that
 * fills while RocksDB flushes or compacts in the background; those errors resume the same way.)
 */
class FullDiskTest {

    private static final int VALUE_BYTES = 64 << 10;
    private static final Random RANDOM = new Random(12);

    @TempDir
    Path dir;

    private TinyFileSystem tiny;

    @AfterEach
    void unmount() throws Exception {
        if (tiny != null) {
            tiny.close();
        }
    }

    @Test
    void aFullDiskFailsACommitWithNoSpaceAndTheSameStoreWritesAgainOnceSpaceIsFreed() throws Exception {
        tiny = TinyFileSystem.mount(dir.resolve("tiny"), 64);
        Path storeDir = tiny.root().resolve("store");
        Path filler = tiny.root().resolve("filler");
        List<String> acked = new ArrayList<>();
        try (RocksStore store = create(storeDir)) {
            for (int i = 0; i < 10; i++) {
                commit(store, "before" + i, acked);
            }
            tiny.fill(filler);
            StoreException full = null;
            for (int i = 0; full == null; i++) {
                try {
                    commit(store, "filling" + i, acked);
                } catch (StoreException e) {
                    full = e;
                }
            }
            assertThat(full.reason()).isEqualTo(StoreError.NO_SPACE);
            assertThat(full).hasMessageContaining("no space");
            assertThatThrownBy(() -> commit(store, "still-full", acked)).as("writes fail until RocksDB resumes")
                    .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.reason())
                            .isIn(StoreError.NO_SPACE, StoreError.IO));

            Files.delete(filler);
            assertThat(store.recoveryWatch().awaitRecoveries(1, Duration.ofMinutes(1)))
                    .as("RocksDB resumed after the space was freed").isTrue();
            commit(store, "after", acked);
        }
        try (RocksStore store = open(StoreOptions.existing(storeDir, FAMILIES))) {
            for (String name : acked) {
                assertThat(store.get(ITEMS, key(name))).as(name).isPresent();
            }
        }
    }

    @Test
    void aStoreReopensOnANearlyFullDiskWithoutRoomForItsWholeLog() throws Exception {
        tiny = TinyFileSystem.mount(dir.resolve("tiny"), 48);
        Path storeDir = tiny.root().resolve("store");
        Path filler = tiny.root().resolve("filler");
        List<String> acked = new ArrayList<>();
        // Memtables large enough that the 8 MiB stay in the log (the default bound would flush them).
        try (RocksStore store = open(StoreOptions.create(storeDir, FAMILIES)
                .with(RocksSettings.MEMTABLE_BYTES, Long.toString(64L << 20)))) {
            for (int i = 0; i < 128; i++) {
                commit(store, "k" + i, acked);
            }
        }
        long logBytes = logBytes(storeDir);
        assertThat(logBytes).as("8 MiB of commits, all still in the log").isGreaterThan(8L << 20);
        long filled = tiny.fill(filler);
        try (FileChannel channel = FileChannel.open(filler, StandardOpenOption.WRITE)) {
            channel.truncate(filled - (1L << 20));
        }

        try (RocksStore store = open(StoreOptions.existing(storeDir, FAMILIES))) {
            for (String name : acked) {
                assertThat(store.get(ITEMS, key(name))).as(name).isPresent();
            }
        }
    }

    /** A SYNC commit of one 64 KiB value of random (incompressible) bytes, recorded once acknowledged. */
    private static void commit(RocksStore store, String name, List<String> acked) {
        byte[] value = new byte[VALUE_BYTES];
        RANDOM.nextBytes(value);
        store.commit(new WriteBatch().put(ITEMS, key(name), value), Durability.SYNC);
        acked.add(name);
    }

    /** Bytes in the {@code *.log} files of a store directory. */
    private static long logBytes(Path storeDir) throws IOException {
        try (Stream<Path> files = Files.list(storeDir)) {
            long total = 0;
            for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
                total += Files.size(p);
            }
            return total;
        }
    }
}
