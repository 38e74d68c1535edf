package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.COUNTS;
import static io.ankusa.store.rocksdb.TestStores.FAMILIES;
import static io.ankusa.store.rocksdb.TestStores.ITEMS;
import static io.ankusa.store.rocksdb.TestStores.create;
import static io.ankusa.store.rocksdb.TestStores.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.WriteBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bytes flipped in the middle of an SST data block: every read that touches the block throws
 * {@link StoreCorruptionException}; none reports the entries as absent (or a counter as 0) or ends
 * a scan early.
 */
class CorruptionTest {

    private static final int KEYS = 4_000;
    private static final int VALUE_BYTES = 200;

    @TempDir
    Path dir;

    private Path corrupted;
    private final List<byte[]> keys = new ArrayList<>();
    private final List<byte[]> values = new ArrayList<>();

    @BeforeEach
    void writeFlushAndCorrupt() throws IOException {
        Random random = new Random(42);
        Path live = dir.resolve("live");
        corrupted = dir.resolve("copy");
        try (RocksStore store = create(live)) {
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < KEYS; i++) {
                byte[] key = String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII);
                byte[] value = new byte[VALUE_BYTES];
                random.nextBytes(value); // incompressible, so the SST holds ~800 KB of data blocks
                keys.add(key);
                values.add(value);
                batch.put(ITEMS, key, value);
            }
            store.commit(batch, Durability.SYNC);
            store.checkpoint(corrupted); // flushes the memtable: the copy holds the rows in an SST
        }
        long size = flipBytesInTheMiddleOfTheLargestTable(corrupted);
        assertThat(size).as("the SST holds the data blocks").isGreaterThan((long) KEYS * VALUE_BYTES / 2);
    }

    /** Flips 64 bytes in the middle of the largest SST of {@code store}; returns its size. */
    private static long flipBytesInTheMiddleOfTheLargestTable(Path store) throws IOException {
        Path sst;
        try (Stream<Path> files = Files.list(store)) {
            sst = files.filter(p -> p.toString().endsWith(".sst"))
                    .max(Comparator.comparingLong(CorruptionTest::size)).orElseThrow();
        }
        long size = Files.size(sst);
        try (FileChannel channel = FileChannel.open(sst, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer middle = ByteBuffer.allocate(64);
            channel.read(middle, size / 2);
            for (int i = 0; i < middle.capacity(); i++) {
                middle.put(i, (byte) ~middle.get(i));
            }
            channel.write(middle.flip(), size / 2);
        }
        return size;
    }

    private static long size(Path path) {
        try {
            return Files.size(path);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private RocksStore openCorrupted() {
        return open(StoreOptions.existing(corrupted, FAMILIES));
    }

    @ParameterizedTest
    @EnumSource(Direction.class)
    void scanThrowsInsteadOfEndingShort(Direction direction) {
        try (RocksStore store = openCorrupted(); Scan scan = store.scan(ITEMS, KeyRange.all(), direction)) {
            int[] seen = new int[1];
            assertThatThrownBy(() -> {
                while (scan.hasNext()) {
                    scan.next();
                    seen[0]++;
                }
            }).isInstanceOf(StoreCorruptionException.class);
            assertThat(seen[0]).isLessThan(KEYS);
            assertThatThrownBy(scan::hasNext).as("a failed scan keeps failing").isInstanceOf(StoreCorruptionException.class);
            assertThat(store.openScanCount()).as("a failed scan frees its iterator").isZero();
        }
    }

    @Test
    void pointReadsThrowOnTheCorruptBlockAndReturnTheRestIntact() {
        try (RocksStore store = openCorrupted()) {
            int corrupt = 0;
            for (int i = 0; i < KEYS; i++) {
                Optional<byte[]> value;
                try {
                    value = store.get(ITEMS, keys.get(i));
                } catch (StoreCorruptionException e) {
                    corrupt++;
                    continue;
                }
                assertThat(value).as("key %d is never reported absent", i).isPresent();
                assertThat(value.orElseThrow()).as("key %d", i).isEqualTo(values.get(i));
            }
            assertThat(corrupt).as("the keys of the flipped block throw").isPositive().isLessThan(KEYS);
        }
    }

    @Test
    void multiGetThrowsRatherThanReportingTheCorruptKeysAbsent() {
        try (RocksStore store = openCorrupted()) {
            assertThatThrownBy(() -> store.multiGet(ITEMS, keys)).isInstanceOf(StoreCorruptionException.class);
        }
    }

    /**
     * The walk and the {@code MultiGet} it hands spread-out keys to both throw: a few keys (one
     * {@code MultiGet}), keys close together (the walk's {@code next}), and keys far apart with the
     * corrupt one last (the walk's seeks run out first and the {@code MultiGet} reads it).
     */
    @Test
    void multiGetThrowsOnEveryReadPath() {
        try (RocksStore store = openCorrupted()) {
            int corrupt = firstCorruptKey(store);
            assertThatThrownBy(() -> store.multiGet(ITEMS, List.of(keys.get(0), keys.get(corrupt))))
                    .isInstanceOf(StoreCorruptionException.class);
            assertThatThrownBy(() -> store.multiGet(ITEMS, keys.subList(Math.max(0, corrupt - 20), corrupt + 1)))
                    .isInstanceOf(StoreCorruptionException.class);
            List<byte[]> spread = new ArrayList<>();
            for (int i = 0; i < 40 && i * 50 < corrupt - 50; i++) {
                spread.add(keys.get(i * 50));
            }
            spread.add(keys.get(corrupt));
            assertThat(spread.size()).as("more keys than the walk seeks for").isGreaterThan(RocksWalkRead.maxSeeks(spread.size()) + 1);
            assertThatThrownBy(() -> store.multiGet(ITEMS, spread)).isInstanceOf(StoreCorruptionException.class);
        }
    }

    private int firstCorruptKey(RocksStore store) {
        for (int i = 0; i < KEYS; i++) {
            try {
                store.get(ITEMS, keys.get(i));
            } catch (StoreCorruptionException e) {
                return i;
            }
        }
        throw new AssertionError("no key reads the flipped block");
    }

    @Test
    void counterReadsThrowRatherThanReadingTheCorruptCountersAsZero() throws IOException {
        int counters = 40_000;
        Path live = dir.resolve("counters-live");
        Path copy = dir.resolve("counters-copy");
        List<byte[]> counterKeys = new ArrayList<>();
        try (RocksStore store = create(live)) {
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < counters; i++) {
                byte[] key = String.format("counter%06d", i).getBytes(StandardCharsets.US_ASCII);
                counterKeys.add(key);
                batch.merge(COUNTS, key, i + 1L); // no counter is 0, so a 0 can only be a corrupt one read as absent
            }
            store.commit(batch, Durability.SYNC);
            store.checkpoint(copy);
        }
        flipBytesInTheMiddleOfTheLargestTable(copy);
        try (RocksStore store = open(StoreOptions.existing(copy, FAMILIES))) {
            int failedChunks = 0;
            for (int from = 0; from < counters; from += 500) {
                List<byte[]> chunk = counterKeys.subList(from, from + 500);
                long[] sums;
                try {
                    sums = store.counters(COUNTS, chunk);
                } catch (StoreCorruptionException expected) {
                    failedChunks++;
                    continue;
                }
                for (int i = 0; i < sums.length; i++) {
                    assertThat(sums[i]).as("counter %d", from + i).isEqualTo(from + i + 1L);
                }
            }
            assertThat(failedChunks).as("chunks that met the flipped block").isPositive().isLessThan(counters / 500);
        }
    }
}
