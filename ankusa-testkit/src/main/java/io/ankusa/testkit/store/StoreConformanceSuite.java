package io.ankusa.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ankusa.store.Bytes;
import io.ankusa.store.Cursor;
import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreLockedException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.UnknownFamilyException;
import io.ankusa.store.WriteBatch;
import io.ankusa.store.spi.CounterCodec;
import io.ankusa.store.spi.FamilyCatalog;
import io.ankusa.store.spi.StoreProvider;
import io.ankusa.testkit.property.ActionSequenceCheck;
import io.ankusa.testkit.property.PropertyConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The storage SPI's conformance suite: what every {@link Store} backend must do, run once per
 * backend by a subclass of one screen.
 *
 * <p>A backend (ours or a third party's, through {@code ankusa-testkit} in test scope) extends this
 * class and names its provider; it may override {@link #open} to pass settings, and turns on the
 * capabilities it can support, such as {@link #supportsCorruptionInjection()} with
 * {@link #corruptDataFiles}. Every test gets a fresh temporary directory; every store a test opens
 * through {@link #openAt} is closed after it.
 *
 * <p>The last test is model-based: random sequences of writes, refused batches, scans, checkpoints and
 * close-and-reopen, checked against a sorted-map model after every step (see
 * {@link ModelledStore}); {@code -Dankusa.seed}, {@code -Dankusa.tries} and
 * {@code -Dankusa.actions} replay or scale it.
 */
public abstract class StoreConformanceSuite {

    /** A plain family. */
    protected static final String PLAIN = "plain";
    /** A second plain family. */
    protected static final String OTHER = "other";
    /** A counter family. */
    protected static final String COUNTS = "counts";
    /** The families every test declares. */
    protected static final List<FamilySpec> FAMILIES =
            List.of(FamilySpec.plain(PLAIN), FamilySpec.plain(OTHER), FamilySpec.counter(COUNTS));

    /** A fresh directory for each test. */
    @TempDir
    protected Path tempDir;

    private final List<Store> opened = new ArrayList<>();

    /** For a backend's subclass. */
    protected StoreConformanceSuite() {
    }

    // ---- what a backend's subclass provides -------------------------------------------------

    /**
     * The provider name the backend registers ({@link StoreProvider#name()}).
     *
     * @return the name the backend's {@link StoreProvider} registers under
     */
    protected abstract String backend();

    /**
     * Opens a store; by default through {@link Stores#open} with {@link #backend()}.
     *
     * @param options where the store lives, its column families and whether to create it
     * @return the open store
     */
    protected Store open(StoreOptions options) {
        return Stores.open(backend(), options);
    }

    /**
     * Whether {@link #corruptDataFiles} can damage a closed store's data so that reads must notice.
     *
     * @return {@code true} when {@link #corruptDataFiles} is implemented for this backend
     */
    protected boolean supportsCorruptionInjection() {
        return false;
    }

    /**
     * Damages the data files of the closed store in {@code directory} (for example flips bytes in
     * the middle of each table file). Must damage at least one file holding rows, or fail.
     *
     * @param directory the directory of a closed store
     * @throws IOException when the files cannot be read or written
     */
    protected void corruptDataFiles(Path directory) throws IOException {
        throw new UnsupportedOperationException(backend() + " declares no corruption injection");
    }

    // ---- discovery -------------------------------------------------------------------------

    /** The provider is found by its name through {@link Stores}. */
    @Test
    public void providerIsFoundByName() {
        assertThat(Stores.providers()).extracting(StoreProvider::name).contains(backend());
        assertThat(Stores.provider(backend())).isPresent();

        Path dir = storeDir();
        Store store = track(Stores.open(backend(), StoreOptions.create(dir, FAMILIES)));
        assertThat(store.backend()).isEqualTo(backend());
        assertThat(store.directory()).isEqualTo(dir);
        assertThat(store.families()).isEqualTo(FAMILIES);
    }

    // ---- order and ranges ------------------------------------------------------------------

    private static final List<byte[]> ORDERED_KEYS = List.of(
            b(0x00), b(0x00, 0x00), b(0x01), b(0x7F), b(0x7F, 0xFF), b(0x80), b(0x80, 0x00),
            b(0xFF), b(0xFF, 0x00), b(0xFF, 0xFF), b(0xFF, 0xFF, 0x00), b(0xFF, 0xFF, 0xFF));

    /** Scans order keys as unsigned bytes both ways. */
    @Test
    public void scansOrderKeysAsUnsignedBytesBothWays() {
        Store store = storeWithOrderedKeys();
        assertThat(keys(scanAll(store, PLAIN, KeyRange.all(), Direction.FORWARD))).isEqualTo(hex(ORDERED_KEYS));
        List<byte[]> reversed = new ArrayList<>(ORDERED_KEYS);
        Collections.reverse(reversed);
        assertThat(keys(scanAll(store, PLAIN, KeyRange.all(), Direction.REVERSE))).isEqualTo(hex(reversed));
        assertThat(keys(scanAll(store, PLAIN, KeyRange.all()))).as("default direction").isEqualTo(hex(ORDERED_KEYS));
    }

    /** Ranges are half-open in unsigned order. */
    @Test
    public void rangesAreHalfOpenInUnsignedOrder() {
        Store store = storeWithOrderedKeys();
        assertRange(store, KeyRange.of(b(0x7F), b(0x80)), b(0x7F), b(0x7F, 0xFF));
        assertRange(store, KeyRange.of(b(0x00), b(0x7F)), b(0x00), b(0x00, 0x00), b(0x01));
        assertRange(store, KeyRange.of(b(0x80), b(0xFF)), b(0x80), b(0x80, 0x00));
        assertRange(store, KeyRange.of(b(0x7F, 0xFF), b(0xFF, 0x00)), b(0x7F, 0xFF), b(0x80), b(0x80, 0x00), b(0xFF));
        assertRange(store, KeyRange.of(b(0x7F), b(0x7F)));
        assertRange(store, KeyRange.of(b(0x02), b(0x7E)));
        assertRange(store, KeyRange.of(b(0x00, 0x01), b(0x7F, 0x00)), b(0x01), b(0x7F));
        assertRange(store, KeyRange.atLeast(b(0xFF, 0x00)), b(0xFF, 0x00), b(0xFF, 0xFF), b(0xFF, 0xFF, 0x00),
                b(0xFF, 0xFF, 0xFF));
        assertRange(store, KeyRange.atLeast(b(0xFF, 0xFF, 0xFF, 0x00)));
        assertRange(store, KeyRange.of(new byte[0], b(0x00, 0x00)), b(0x00));
        assertRange(store, KeyRange.of(b(0xFF, 0xFF, 0xFF), b(0xFF, 0xFF, 0xFF, 0xFF)), b(0xFF, 0xFF, 0xFF));
    }

    /** Prefix ranges hold exactly their keys, including prefixes of all {@code 0xFF} bytes (which have no end key). */
    @Test
    public void prefixRangesIncludingAllFfPrefixes() {
        Store store = storeWithOrderedKeys();
        assertRange(store, KeyRange.prefix(b(0x00)), b(0x00), b(0x00, 0x00));
        assertRange(store, KeyRange.prefix(b(0x7F)), b(0x7F), b(0x7F, 0xFF));
        assertRange(store, KeyRange.prefix(b(0x80)), b(0x80), b(0x80, 0x00));
        assertRange(store, KeyRange.prefix(b(0xFF)), b(0xFF), b(0xFF, 0x00), b(0xFF, 0xFF), b(0xFF, 0xFF, 0x00),
                b(0xFF, 0xFF, 0xFF));
        assertRange(store, KeyRange.prefix(b(0xFF, 0xFF)), b(0xFF, 0xFF), b(0xFF, 0xFF, 0x00), b(0xFF, 0xFF, 0xFF));
        assertRange(store, KeyRange.prefix(b(0xFF, 0xFF, 0xFF)), b(0xFF, 0xFF, 0xFF));
        assertRange(store, KeyRange.prefix(b(0x7F, 0xFF)), b(0x7F, 0xFF));
        assertRange(store, KeyRange.prefix(b(0x42)));
    }

    /** A reverse scan starts below the exclusive end. */
    @Test
    public void reverseScanStartsBelowTheExclusiveEnd() {
        Store store = storeWithOrderedKeys();
        assertThat(keys(scanAll(store, PLAIN, KeyRange.of(b(0x00), b(0x80)), Direction.REVERSE)))
                .as("end is a stored key").containsExactly("7fff", "7f", "01", "0000", "00");
        assertThat(keys(scanAll(store, PLAIN, KeyRange.of(b(0x00), b(0x7F, 0x80)), Direction.REVERSE)))
                .as("end falls between keys").containsExactly("7f", "01", "0000", "00");
        assertThat(keys(scanAll(store, PLAIN, KeyRange.atLeast(b(0xFF, 0xFF)), Direction.REVERSE)))
                .as("unbounded end").containsExactly("ffffff", "ffff00", "ffff");
        assertThat(keys(scanAll(store, PLAIN, KeyRange.of(b(0x00, 0x00), b(0x00, 0x00, 0x00)), Direction.REVERSE)))
                .containsExactly("0000");
    }

    /** Scans of empty families and empty ranges return nothing. */
    @Test
    public void scansOfEmptyFamiliesAndEmptyRangesReturnNothing() {
        Store store = storeWithOrderedKeys();
        for (Direction direction : Direction.values()) {
            assertThat(scanAll(store, OTHER, KeyRange.all(), direction)).isEmpty();
            assertThat(scanAll(store, COUNTS, KeyRange.all(), direction)).isEmpty();
            assertThat(scanAll(store, PLAIN, KeyRange.of(b(0x80, 0x00), b(0x80, 0x00)), direction)).isEmpty();
        }
        try (Scan scan = store.scan(PLAIN, KeyRange.prefix(b(0x42)))) {
            assertThat(scan.hasNext()).isFalse();
            assertThatThrownBy(scan::next).isInstanceOf(NoSuchElementException.class);
        }
    }

    /** A scan returns values and counter sums. */
    @Test
    public void scanReturnsValuesAndCounterSums() {
        Store store = openStore();
        store.commit(new WriteBatch()
                .put(PLAIN, b(0x01), b(0xAA, 0xBB))
                .put(PLAIN, b(0x02), new byte[0])
                .merge(COUNTS, b(0x01), -7)
                .merge(COUNTS, b(0x02), 5)
                .merge(COUNTS, b(0x02), -5), Durability.SYNC);
        assertThat(scanAll(store, PLAIN, KeyRange.all(), Direction.FORWARD))
                .containsExactly(new KeyValue(b(0x01), b(0xAA, 0xBB)), new KeyValue(b(0x02), new byte[0]));
        assertThat(scanAll(store, COUNTS, KeyRange.all(), Direction.FORWARD)).as("8-byte little-endian sums")
                .containsExactly(new KeyValue(b(0x01), CounterCodec.encode(-7)),
                        new KeyValue(b(0x02), CounterCodec.encode(0)));
    }

    /** A scan sees one consistent view. */
    @Test
    public void scanSeesOneConsistentView() {
        Store store = openStore();
        WriteBatch load = new WriteBatch();
        for (int i = 0; i < 100; i++) {
            load.put(PLAIN, b(0x10, i), b(i));
        }
        store.commit(load, Durability.SYNC);
        for (Direction direction : Direction.values()) {
            List<String> seen = new ArrayList<>();
            try (Scan scan = store.scan(PLAIN, KeyRange.all(), direction)) {
                for (int i = 0; i < 10; i++) {
                    seen.add(Bytes.hex(scan.next().key()));
                }
                store.commit(new WriteBatch()
                        .deleteRange(PLAIN, b(0x10), b(0x11))
                        .put(PLAIN, b(0x00), b(1))
                        .put(PLAIN, b(0x10, 50, 0), b(1))
                        .put(PLAIN, b(0xFF), b(1)), Durability.ASYNC);
                scan.forEachRemaining(kv -> seen.add(Bytes.hex(kv.key())));
            }
            List<String> before = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                before.add(Bytes.hex(b(0x10, i)));
            }
            if (direction == Direction.REVERSE) {
                Collections.reverse(before);
            }
            assertThat(seen).as("%s scan opened before the commit", direction).isEqualTo(before);
            store.commit(new WriteBatch().deleteRange(PLAIN, b(0x00), b(0xFF, 0xFF)), Durability.ASYNC);
            store.commit(load, Durability.ASYNC);
        }
    }

    /** A scan still open when the store closes is invalidated. */
    @Test
    public void scanStillOpenWhenTheStoreClosesIsInvalidated() {
        Store store = storeWithOrderedKeys();
        Scan scan = store.scan(PLAIN, KeyRange.all());
        assertThat(scan.next().key()).isEqualTo(b(0x00));
        store.close();
        assertThatThrownBy(() -> {
            while (scan.hasNext()) {
                scan.next();
            }
        }).isInstanceOf(StoreClosedException.class);
        scan.close();
        scan.close();
    }

    // ---- cursors ---------------------------------------------------------------------------

    /** A cursor reads each range it is positioned at, in any order of ranges, as a scan would. */
    @Test
    public void cursorSeeksAgainAndReadsEachRangeAsAScanWould() {
        Store store = storeWithOrderedKeys();
        List<KeyRange> ranges = List.of(KeyRange.of(b(0x7F), b(0x80)), KeyRange.of(b(0x00), b(0x7F)),
                KeyRange.prefix(b(0xFF)), KeyRange.of(b(0x02), b(0x7E)), KeyRange.of(b(0x7F, 0xFF), b(0xFF, 0x00)),
                KeyRange.atLeast(b(0xFF, 0x00)), KeyRange.of(b(0x7F), b(0x7F)), KeyRange.all(),
                KeyRange.of(new byte[0], b(0x00, 0x00)), KeyRange.prefix(b(0x80)));
        try (Cursor cursor = store.cursor(PLAIN)) {
            for (int pass = 0; pass < 2; pass++) {
                for (KeyRange range : ranges) {
                    List<byte[]> read = new ArrayList<>();
                    try (Scan scan = cursor.seek(range)) {
                        scan.forEachRemaining(kv -> read.add(kv.key()));
                    }
                    assertThat(hex(read)).as("pass %d, %s", pass, range)
                            .isEqualTo(keys(scanAll(store, PLAIN, range, Direction.FORWARD)));
                }
            }
        }
    }

    /**
     * A cursor's range end moves with every seek, up as well as down, over keys of any length, and
     * over ranges whose rows were deleted (the tombstones a seek must step over, not stop at): on
     * the rows as committed, and again after a reopen (on RocksDB the recovered rows are in table
     * files then, not in the memtable).
     */
    @Test
    public void cursorRangeEndsMoveWithEverySeekOverDeletedRows() {
        Path dir = storeDir();
        Store store = openAt(dir, FAMILIES, true);
        WriteBatch load = new WriteBatch();
        for (int i = 0; i < 200; i++) {
            load.put(PLAIN, rowKey(i), rowValue(i));
        }
        byte[] longKey = new byte[300];
        Arrays.fill(longKey, (byte) 0x72);
        load.put(PLAIN, longKey, b(1));
        store.commit(load, Durability.SYNC);
        WriteBatch deletes = new WriteBatch();
        for (int i = 0; i < 200; i++) {
            if (i % 10 != 0) {
                deletes.delete(PLAIN, rowKey(i));
            }
        }
        store.commit(deletes, Durability.SYNC);
        assertCursorWindows(store, longKey);
        store.close();
        assertCursorWindows(openAt(dir, FAMILIES, false), longKey);
    }

    private static void assertCursorWindows(Store store, byte[] longKey) {
        byte[] beyondLong = longKey.clone();
        beyondLong[beyondLong.length - 1] = 0x73;
        try (Cursor cursor = store.cursor(PLAIN)) {
            int[][] windows = {{0, 5}, {0, 200}, {35, 36}, {35, 95}, {190, 200}, {1, 9}, {0, 11}};
            for (int[] window : windows) {
                List<Integer> read = new ArrayList<>();
                try (Scan scan = cursor.seek(KeyRange.of(rowKey(window[0]), rowKey(window[1])))) {
                    scan.forEachRemaining(kv -> read.add(rowOf(kv.key())));
                }
                List<Integer> expected = new ArrayList<>();
                for (int i = window[0]; i < window[1]; i++) {
                    if (i % 10 == 0) {
                        expected.add(i);
                    }
                }
                assertThat(read).as("rows [%d, %d)", window[0], window[1]).isEqualTo(expected);
            }
            try (Scan scan = cursor.seek(KeyRange.of(longKey, beyondLong))) {
                assertThat(scan.next().key()).as("a range end longer than any before").isEqualTo(longKey);
                assertThat(scan.hasNext()).isFalse();
            }
            try (Scan scan = cursor.seek(KeyRange.of(rowKey(10), rowKey(21)))) {
                assertThat(rowOf(scan.next().key())).isEqualTo(10);
                assertThat(rowOf(scan.next().key())).isEqualTo(20);
                assertThat(scan.hasNext()).as("a short range end after a long one").isFalse();
            }
        }
    }

    /** A cursor reads counter sums, sees what was committed before it opened, and refuses an unknown family. */
    @Test
    public void cursorReadsCommittedRowsAndCounterSums() {
        Store store = openStore();
        store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)).put(PLAIN, b(0x02), b(2))
                .merge(COUNTS, b(0x05), 40).merge(COUNTS, b(0x05), 2), Durability.SYNC);
        store.commit(new WriteBatch().delete(PLAIN, b(0x01)).put(PLAIN, b(0x03), b(3)), Durability.ASYNC);
        try (Cursor cursor = store.cursor(PLAIN)) {
            List<byte[]> read = new ArrayList<>();
            try (Scan scan = cursor.seek(KeyRange.all())) {
                scan.forEachRemaining(kv -> read.add(kv.key()));
            }
            assertThat(hex(read)).isEqualTo(hex(List.of(b(0x02), b(0x03))));
        }
        try (Cursor counts = store.cursor(COUNTS); Scan scan = counts.seek(KeyRange.prefix(b(0x05)))) {
            assertThat(CounterCodec.decode(scan.next().value())).isEqualTo(42);
        }
        assertThatThrownBy(() -> store.cursor("nope")).isInstanceOf(UnknownFamilyException.class);
    }

    /** The scan of a seek ends at the next seek; closing it leaves the cursor open. */
    @Test
    public void aSeeksScanEndsAtTheNextSeek() {
        Store store = storeWithOrderedKeys();
        try (Cursor cursor = store.cursor(PLAIN)) {
            Scan first = cursor.seek(KeyRange.prefix(b(0xFF)));
            assertThat(first.next().key()).isEqualTo(b(0xFF));
            Scan second = cursor.seek(KeyRange.prefix(b(0x00)));
            assertThatThrownBy(first::hasNext).isInstanceOf(IllegalStateException.class);
            second.close();
            try (Scan third = cursor.seek(KeyRange.prefix(b(0x7F)))) {
                assertThat(third.next().key()).isEqualTo(b(0x7F));
            }
        }
    }

    /** A cursor still open when the store closes is invalidated. */
    @Test
    public void cursorStillOpenWhenTheStoreClosesIsInvalidated() {
        Store store = storeWithOrderedKeys();
        Cursor cursor = store.cursor(PLAIN);
        Scan scan = cursor.seek(KeyRange.all());
        assertThat(scan.next().key()).isEqualTo(b(0x00));
        store.close();
        assertThatThrownBy(() -> {
            while (scan.hasNext()) {
                scan.next();
            }
        }).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> cursor.seek(KeyRange.all())).isInstanceOf(StoreClosedException.class);
        cursor.close();
        cursor.close();
    }

    // ---- point reads -----------------------------------------------------------------------

    /** A multi-get keeps order and reports absent keys as empty. */
    @Test
    public void multiGetKeepsOrderAndReportsAbsentKeysAsEmpty() {
        Store store = openStore();
        store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)).put(PLAIN, b(0xFF), b(2)).put(PLAIN, b(0x80), b(3)),
                Durability.SYNC);
        List<Optional<byte[]>> values = store.multiGet(PLAIN, List.of(b(0xFF), b(0x02), b(0x01), b(0xFF), b(0x80)));
        assertThat(values).hasSize(5);
        assertThat(values.get(0)).hasValueSatisfying(v -> assertThat(v).containsExactly(2));
        assertThat(values.get(1)).isEmpty();
        assertThat(values.get(2)).hasValueSatisfying(v -> assertThat(v).containsExactly(1));
        assertThat(values.get(3)).hasValueSatisfying(v -> assertThat(v).containsExactly(2));
        assertThat(values.get(4)).hasValueSatisfying(v -> assertThat(v).containsExactly(3));
        assertThat(store.multiGet(PLAIN, List.of())).isEmpty();
        assertThat(store.multiGet(OTHER, List.of(b(0x01)))).containsExactly(Optional.empty());
        assertThat(store.get(PLAIN, b(0x80))).hasValueSatisfying(v -> assertThat(v).containsExactly(3));
        assertThat(store.get(PLAIN, b(0x80, 0x00))).isEmpty();
    }

    /** Returned arrays belong to the caller. */
    @Test
    public void returnedArraysBelongToTheCaller() {
        Store store = openStore();
        store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1, 2, 3)), Durability.SYNC);
        store.get(PLAIN, b(0x01)).orElseThrow()[0] = 9;
        try (Scan scan = store.scan(PLAIN, KeyRange.all())) {
            scan.next().value()[1] = 9;
        }
        assertThat(store.get(PLAIN, b(0x01))).hasValueSatisfying(v -> assertThat(v).containsExactly(1, 2, 3));
    }

    /** Large and empty values come back as written. */
    @Test
    public void largeAndEmptyValuesRoundTrip() {
        Store store = openStore();
        byte[] large = new byte[1 << 20];
        new SplittableRandom(1).nextBytes(large);
        store.commit(new WriteBatch().put(PLAIN, b(0x01), large).put(PLAIN, b(0x02), new byte[0]), Durability.SYNC);
        assertThat(store.get(PLAIN, b(0x01))).hasValueSatisfying(v -> assertThat(v).isEqualTo(large));
        assertThat(store.multiGet(PLAIN, List.of(b(0x02), b(0x01))))
                .satisfiesExactly(v -> assertThat(v).hasValueSatisfying(e -> assertThat(e).isEmpty()),
                        v -> assertThat(v).hasValueSatisfying(l -> assertThat(l).isEqualTo(large)));
    }

    /**
     * Readers never see half a batch.
     *
     * @throws Exception when a reader or writer thread fails or is interrupted
     */
    @Test
    public void readersNeverSeeHalfABatch() throws Exception {
        Store store = openStore();
        List<byte[]> keys = List.of(b(0x01), b(0x40), b(0x7F), b(0x80), b(0xC0), b(0xFF));
        int reads = 500;
        AtomicInteger readsDone = new AtomicInteger();
        CountDownLatch firstCommit = new CountDownLatch(1);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> writes = writer.submit(() -> {
                int generation = 0;
                do {
                    WriteBatch batch = new WriteBatch();
                    for (byte[] key : keys) {
                        batch.put(PLAIN, key, b(generation >>> 16, generation >>> 8, generation));
                    }
                    batch.merge(COUNTS, b(0x01), 1).merge(COUNTS, b(0x02), -1);
                    store.commit(batch, Durability.ASYNC);
                    generation++;
                    firstCommit.countDown();
                } while (readsDone.get() < reads);
                return generation;
            });
            assertThat(firstCommit.await(5, TimeUnit.MINUTES)).isTrue();
            for (int i = 0; i < reads; i++) {
                List<Optional<byte[]>> values = store.multiGet(PLAIN, keys);
                assertThat(values.stream().map(v -> v.map(Bytes::hex).orElse("absent")).distinct())
                        .as("multiGet sees one batch whole").hasSize(1);
                List<KeyValue> rows =
                        scanAll(store, PLAIN, KeyRange.all(), i % 2 == 0 ? Direction.FORWARD : Direction.REVERSE);
                assertThat(rows).as("scan sees one batch whole").hasSize(keys.size());
                assertThat(rows.stream().map(kv -> Bytes.hex(kv.value())).distinct()).hasSize(1);
                long[] counters = store.counters(COUNTS, List.of(b(0x01), b(0x02)));
                assertThat(counters[0] + counters[1]).as("counters from one view: %s", Arrays.toString(counters))
                        .isZero();
                readsDone.incrementAndGet();
            }
            int generations = writes.get(5, TimeUnit.MINUTES);
            assertThat(store.counter(COUNTS, b(0x01))).isEqualTo(generations);
        } finally {
            readsDone.set(reads);
            writer.shutdownNow();
        }
    }

    /** Counters of missing rows are zero. */
    @Test
    public void countersOfMissingRowsAreZero() {
        Store store = openStore();
        store.commit(new WriteBatch().merge(COUNTS, b(0x02), 4), Durability.SYNC);
        assertThat(store.counter(COUNTS, b(0x01))).isZero();
        assertThat(store.counters(COUNTS, List.of(b(0x01), b(0x02), b(0xFF), b(0x02)))).containsExactly(0, 4, 0, 4);
        assertThat(store.counters(COUNTS, List.of())).isEmpty();
    }

    /** Reads that do not fit the family kind are refused. */
    @Test
    public void readsThatDoNotFitTheFamilyKindAreRefused() {
        Store store = openStore();
        assertRefused(() -> store.get(COUNTS, b(0x01)), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> store.multiGet(COUNTS, List.of(b(0x01))), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> store.counter(PLAIN, b(0x01)), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> store.counters(PLAIN, List.of(b(0x01))), StoreError.INVALID_ARGUMENT);
    }

    // ---- batches ---------------------------------------------------------------------------

    /** The ops of a batch apply in order. */
    @Test
    public void opsOfABatchApplyInOrder() {
        Store store = openStore();
        store.commit(new WriteBatch()
                .put(PLAIN, b(0x01), b(1)).delete(PLAIN, b(0x01)).put(PLAIN, b(0x01), b(2))
                .put(PLAIN, b(0x02), b(1)).deleteRange(PLAIN, b(0x02), b(0x03))
                .delete(PLAIN, b(0x03)).put(PLAIN, b(0x03), b(3))
                .merge(COUNTS, b(0x01), 5).delete(COUNTS, b(0x01)).merge(COUNTS, b(0x01), 3)
                .merge(COUNTS, b(0x02), 7).deleteRange(COUNTS, b(0x02), b(0x03)).merge(COUNTS, b(0x02), 1),
                Durability.SYNC);
        assertThat(keys(scanAll(store, PLAIN, KeyRange.all(), Direction.FORWARD))).containsExactly("01", "03");
        assertThat(store.get(PLAIN, b(0x01))).hasValueSatisfying(v -> assertThat(v).containsExactly(2));
        assertThat(store.counters(COUNTS, List.of(b(0x01), b(0x02)))).containsExactly(3, 1);
    }

    /** An op that fails validation, placed amid an otherwise valid batch. */
    public enum BadOp {
        /** A merge into a plain family. */
        MERGE_INTO_PLAIN(StoreError.INVALID_ARGUMENT) {
            @Override
            void addTo(WriteBatch batch) {
                batch.merge(PLAIN, b(0x09), 1);
            }
        },
        /** A put into a counter family. */
        PUT_INTO_COUNTER(StoreError.INVALID_ARGUMENT) {
            @Override
            void addTo(WriteBatch batch) {
                batch.put(COUNTS, b(0x09), CounterCodec.encode(1));
            }
        },
        /** A put into an undeclared family. */
        UNKNOWN_FAMILY(StoreError.UNKNOWN_FAMILY) {
            @Override
            void addTo(WriteBatch batch) {
                batch.put("undeclared", b(0x09), b(1));
            }
        },
        /** A delete in an undeclared family. */
        DELETE_IN_UNKNOWN_FAMILY(StoreError.UNKNOWN_FAMILY) {
            @Override
            void addTo(WriteBatch batch) {
                batch.delete("undeclared", b(0x09));
            }
        };

        final StoreError reason;

        BadOp(StoreError reason) {
            this.reason = reason;
        }

        abstract void addTo(WriteBatch batch);
    }

    /**
     * A batch failing validation midway writes nothing.
     *
     * @param bad the invalid op placed in the middle of the batch
     */
    @ParameterizedTest
    @EnumSource(BadOp.class)
    public void batchFailingValidationMidwayWritesNothing(BadOp bad) {
        Path dir = storeDir();
        Store store = openAt(dir, FAMILIES, true);
        store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)).put(PLAIN, b(0x02), b(2)).merge(COUNTS, b(0x01), 10),
                Durability.SYNC);
        for (Durability durability : Durability.values()) {
            WriteBatch batch = new WriteBatch()
                    .put(PLAIN, b(0x03), b(3))
                    .put(OTHER, b(0x01), b(1))
                    .delete(PLAIN, b(0x01))
                    .deleteRange(PLAIN, b(0x00), b(0xFF))
                    .merge(COUNTS, b(0x01), 5)
                    .merge(COUNTS, b(0x02), 5);
            bad.addTo(batch);
            batch.put(PLAIN, b(0x04), b(4));
            assertRefused(() -> store.commit(batch, durability), bad.reason);
            assertUntouchedAfterRefusal(store);
        }
        store.commit(new WriteBatch().put(PLAIN, b(0x05), b(5)).merge(COUNTS, b(0x01), 1), Durability.SYNC);
        assertThat(store.get(PLAIN, b(0x05))).as("store keeps working after a refused batch").isPresent();
        assertThat(store.counter(COUNTS, b(0x01))).isEqualTo(11);
        store.close();
        Store reopened = openAt(dir, FAMILIES, false);
        assertThat(keys(scanAll(reopened, PLAIN, KeyRange.all(), Direction.FORWARD))).containsExactly("01", "02", "05");
        assertThat(reopened.counters(COUNTS, List.of(b(0x01), b(0x02)))).containsExactly(11, 0);
    }

    private void assertUntouchedAfterRefusal(Store store) {
        assertThat(keys(scanAll(store, PLAIN, KeyRange.all(), Direction.FORWARD))).containsExactly("01", "02");
        assertThat(scanAll(store, OTHER, KeyRange.all(), Direction.FORWARD)).isEmpty();
        assertThat(store.counters(COUNTS, List.of(b(0x01), b(0x02)))).containsExactly(10, 0);
        assertThat(keys(scanAll(store, COUNTS, KeyRange.all(), Direction.FORWARD))).containsExactly("01");
    }

    /** A put into a counter family and a merge into a plain family are refused. */
    @Test
    public void putIntoCounterFamilyAndMergeIntoPlainFamilyAreRefused() {
        Store store = openStore();
        assertRefused(() ->
                store.commit(new WriteBatch().put(COUNTS, b(0x01), CounterCodec.encode(3)), Durability.SYNC),
                StoreError.INVALID_ARGUMENT);
        assertRefused(() -> store.commit(new WriteBatch().merge(PLAIN, b(0x01), 3), Durability.ASYNC),
                StoreError.INVALID_ARGUMENT);
        assertThat(store.counter(COUNTS, b(0x01))).isZero();
        assertThat(store.get(PLAIN, b(0x01))).isEmpty();
        store.commit(new WriteBatch().merge(COUNTS, b(0x01), 3).put(PLAIN, b(0x01), b(1)), Durability.SYNC);
        assertThat(store.counter(COUNTS, b(0x01))).as("store keeps working").isEqualTo(3);
        assertThat(store.get(PLAIN, b(0x01))).isPresent();
    }

    /** Empty batches commit. */
    @Test
    public void emptyBatchesCommit() {
        Store store = openStore();
        store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)), Durability.ASYNC);
        store.commit(new WriteBatch(), Durability.SYNC);
        store.commit(new WriteBatch(), Durability.ASYNC);
        assertThat(store.get(PLAIN, b(0x01))).isPresent();
    }

    /** One batch can be committed twice. */
    @Test
    public void oneBatchCanBeCommittedTwice() {
        Store store = openStore();
        WriteBatch batch = new WriteBatch().put(PLAIN, b(0x01), b(1)).merge(COUNTS, b(0x01), 2);
        store.commit(batch, Durability.SYNC);
        store.commit(batch, Durability.ASYNC);
        assertThat(store.counter(COUNTS, b(0x01))).isEqualTo(4);
        assertThat(store.get(PLAIN, b(0x01))).hasValueSatisfying(v -> assertThat(v).containsExactly(1));
    }

    // ---- counters --------------------------------------------------------------------------

    /**
     * Concurrent merges on one key are exact.
     *
     * @throws Exception when a merging thread fails or is interrupted
     */
    @Test
    public void concurrentMergesOnOneKeyAreExact() throws Exception {
        Path dir = storeDir();
        Store store = openAt(dir, FAMILIES, true);
        byte[] key = b(0x42);
        int threads = 8;
        int merges = 10_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Long>> sums = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                SplittableRandom random = new SplittableRandom(t);
                sums.add(pool.submit(() -> {
                    long sum = 0;
                    start.await();
                    // Commits of 1 to 32 merges: many concurrent committers without making a
                    // backend whose every commit syncs (LMDB) spend the run on fsync.
                    for (int done = 0; done < merges; ) {
                        WriteBatch batch = new WriteBatch();
                        for (int n = 1 + random.nextInt(32); n > 0 && done < merges; n--, done++) {
                            long delta = done % 100 == 0 ? random.nextLong(-(1L << 34), 1L << 34)
                                    : random.nextLong(-1000, 1001);
                            batch.merge(COUNTS, key, delta);
                            sum += delta;
                        }
                        store.commit(batch, Durability.ASYNC);
                    }
                    return sum;
                }));
            }
            start.countDown();
            long expected = 0;
            for (Future<Long> sum : sums) {
                expected += sum.get(5, TimeUnit.MINUTES);
            }
            assertThat(store.counter(COUNTS, key)).isEqualTo(expected);
            store.close();
            assertThat(openAt(dir, FAMILIES, false).counter(COUNTS, key)).as("after reopen").isEqualTo(expected);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Merge after delete starts from zero. */
    @Test
    public void mergeAfterDeleteStartsFromZero() {
        Store store = openStore();
        store.commit(new WriteBatch().merge(COUNTS, b(0x01), 10).merge(COUNTS, b(0x02), 20), Durability.SYNC);
        store.commit(new WriteBatch().delete(COUNTS, b(0x01)), Durability.SYNC);
        assertThat(store.counter(COUNTS, b(0x01))).isZero();
        store.commit(new WriteBatch().merge(COUNTS, b(0x01), 3), Durability.SYNC);
        assertThat(store.counter(COUNTS, b(0x01))).isEqualTo(3);
        store.commit(new WriteBatch().deleteRange(COUNTS, b(0x02), b(0x03)), Durability.ASYNC);
        store.commit(new WriteBatch().merge(COUNTS, b(0x02), -4), Durability.ASYNC);
        assertThat(store.counters(COUNTS, List.of(b(0x01), b(0x02)))).containsExactly(3, -4);
    }

    /** Counters hold values past 32 bits and negative totals. */
    @Test
    public void countersHoldValuesPast32BitsAndNegativeTotals() {
        Store store = openStore();
        store.commit(new WriteBatch()
                .merge(COUNTS, b(0x01), Integer.MAX_VALUE).merge(COUNTS, b(0x01), Integer.MAX_VALUE)
                .merge(COUNTS, b(0x02), 3_000_000_000L).merge(COUNTS, b(0x02), -5_000_000_000L)
                .merge(COUNTS, b(0x03), 5).merge(COUNTS, b(0x03), -12)
                .merge(COUNTS, b(0x04), 1L << 62).merge(COUNTS, b(0x04), (1L << 62) - 1)
                .merge(COUNTS, b(0x05), Long.MIN_VALUE), Durability.SYNC);
        store.commit(new WriteBatch().merge(COUNTS, b(0x01), 2), Durability.SYNC);
        long[] expected = {2L * Integer.MAX_VALUE + 2, -2_000_000_000L, -7, Long.MAX_VALUE, Long.MIN_VALUE};
        List<byte[]> keys = List.of(b(0x01), b(0x02), b(0x03), b(0x04), b(0x05));
        assertThat(store.counters(COUNTS, keys)).containsExactly(expected);
        assertThat(store.counter(COUNTS, b(0x03))).isEqualTo(-7);
        List<KeyValue> rows = scanAll(store, COUNTS, KeyRange.all(), Direction.FORWARD);
        assertThat(rows).extracting(kv -> CounterCodec.decode(kv.value())).containsExactly(
                Arrays.stream(expected).boxed().toArray(Long[]::new));
    }

    // ---- range deletes ---------------------------------------------------------------------

    /** A delete-range removes exactly the half-open range. */
    @Test
    public void deleteRangeRemovesExactlyTheHalfOpenRange() {
        Store store = storeWithOrderedKeys();
        store.commit(new WriteBatch().deleteRange(PLAIN, b(0x7F), b(0x80)), Durability.SYNC);
        assertThat(keys(scanAll(store, PLAIN, KeyRange.prefix(b(0x7F)), Direction.FORWARD))).isEmpty();
        assertThat(store.get(PLAIN, b(0x80))).as("end is exclusive").isPresent();
        store.commit(new WriteBatch().deleteRange(PLAIN, b(0x00), b(0xFF)), Durability.ASYNC);
        assertThat(keys(scanAll(store, PLAIN, KeyRange.all(), Direction.FORWARD)))
                .containsExactly("ff", "ff00", "ffff", "ffff00", "ffffff");
        store.commit(new WriteBatch().deleteRange(PLAIN, b(0xFF, 0xFF), b(0xFF, 0xFF, 0xFF, 0xFF)), Durability.SYNC);
        assertThat(keys(scanAll(store, PLAIN, KeyRange.all(), Direction.REVERSE))).containsExactly("ff00", "ff");
    }

    /** A delete-range of an empty range or of nothing changes nothing. */
    @Test
    public void deleteRangeOfAnEmptyRangeOrOfNothingChangesNothing() {
        Store store = storeWithOrderedKeys();
        List<String> before = keys(scanAll(store, PLAIN, KeyRange.all(), Direction.FORWARD));
        store.commit(new WriteBatch()
                .deleteRange(PLAIN, b(0x80), b(0x80))
                .deleteRange(PLAIN, b(0x02), b(0x7E))
                .deleteRange(OTHER, b(0x00), b(0xFF))
                .deleteRange(COUNTS, b(0x00), b(0xFF)), Durability.SYNC);
        assertThat(keys(scanAll(store, PLAIN, KeyRange.all(), Direction.FORWARD))).isEqualTo(before);
        store.commit(new WriteBatch().put(OTHER, b(0x01), b(1)), Durability.SYNC);
        assertThat(store.get(OTHER, b(0x01))).as("store keeps working").isPresent();
    }

    /** A delete-range in a counter family resets its rows. */
    @Test
    public void deleteRangeInACounterFamilyResetsItsRows() {
        Store store = openStore();
        WriteBatch merges = new WriteBatch();
        for (int i = 0; i < 10; i++) {
            merges.merge(COUNTS, b(0x20, i), 100 + i);
        }
        store.commit(merges, Durability.SYNC);
        store.commit(new WriteBatch().deleteRange(COUNTS, b(0x20, 2), b(0x20, 8)), Durability.SYNC);
        assertThat(keys(scanAll(store, COUNTS, KeyRange.prefix(b(0x20)), Direction.FORWARD)))
                .containsExactly("2000", "2001", "2008", "2009");
        assertThat(store.counters(COUNTS, List.of(b(0x20, 1), b(0x20, 2), b(0x20, 7), b(0x20, 8))))
                .containsExactly(101, 0, 0, 108);
        store.commit(new WriteBatch().merge(COUNTS, b(0x20, 5), -1), Durability.ASYNC);
        assertThat(store.counter(COUNTS, b(0x20, 5))).isEqualTo(-1);
    }

    // ---- durability and lifecycle ----------------------------------------------------------

    /** A synced commit survives close and reopen. */
    @Test
    public void syncedCommitSurvivesCloseAndReopen() {
        Path dir = storeDir();
        Store store = openAt(dir, FAMILIES, true);
        store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)).put(PLAIN, b(0x02), b(2)).merge(COUNTS, b(0x01), 7),
                Durability.SYNC);
        store.commit(new WriteBatch().delete(PLAIN, b(0x02)).put(OTHER, b(0xFF), b(3)).merge(COUNTS, b(0x01), -9),
                Durability.SYNC);
        store.close();
        Store reopened = openAt(dir, FAMILIES, false);
        assertThat(keys(scanAll(reopened, PLAIN, KeyRange.all(), Direction.FORWARD))).containsExactly("01");
        assertThat(reopened.get(OTHER, b(0xFF))).hasValueSatisfying(v -> assertThat(v).containsExactly(3));
        assertThat(reopened.counter(COUNTS, b(0x01))).isEqualTo(-2);
    }

    /**
     * An async commit is visible at once.
     *
     * @throws Exception when the commit's future fails
     */
    @Test
    public void asyncCommitIsVisibleAtOnce() throws Exception {
        Store store = openStore();
        store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)).merge(COUNTS, b(0x01), 5), Durability.ASYNC);
        assertThat(store.get(PLAIN, b(0x01))).isPresent();
        assertThat(store.counter(COUNTS, b(0x01))).isEqualTo(5);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertThat(other.submit(() -> store.get(PLAIN, b(0x01)).isPresent()).get(1, TimeUnit.MINUTES)).isTrue();
            assertThat(other.submit(() -> scanAll(store, COUNTS, KeyRange.all(), Direction.REVERSE).size())
                    .get(1, TimeUnit.MINUTES)).isEqualTo(1);
        } finally {
            other.shutdownNow();
        }
    }

    /** An async commit survives a clean close. */
    @Test
    public void asyncCommitSurvivesACleanClose() {
        Path dir = storeDir();
        Store store = openAt(dir, FAMILIES, true);
        store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)).merge(COUNTS, b(0x01), 5), Durability.ASYNC);
        store.close();
        Store reopened = openAt(dir, FAMILIES, false);
        assertThat(reopened.get(PLAIN, b(0x01))).isPresent();
        assertThat(reopened.counter(COUNTS, b(0x01))).isEqualTo(5);
    }

    /**
     * The store's size counts what was written: after 2 MiB of incompressible values, synced, it
     * has grown by at least that much, and it stays so after a close and reopen.
     */
    @Test
    public void sizeBytesCountsWhatWasWritten() {
        Path dir = storeDir();
        Store store = openAt(dir, FAMILIES, true);
        long empty = store.sizeBytes();
        assertThat(empty).as("an empty store").isNotNegative();
        SplittableRandom random = new SplittableRandom(7);
        int values = 512;
        int valueBytes = 4096;
        for (int batch = 0; batch < 4; batch++) {
            WriteBatch writes = new WriteBatch();
            for (int i = 0; i < values / 4; i++) {
                byte[] value = new byte[valueBytes];
                random.nextBytes(value);
                writes.put(PLAIN, new byte[] {(byte) batch, (byte) i}, value);
            }
            store.commit(writes, Durability.SYNC);
        }
        long written = (long) values * valueBytes;
        assertThat(store.sizeBytes()).as("after %d bytes of random values", written)
                .isGreaterThanOrEqualTo(empty + written);
        store.close();
        Store reopened = openAt(dir, FAMILIES, false);
        assertThat(reopened.sizeBytes()).as("reopened").isGreaterThanOrEqualTo(written);
    }

    /** A checkpoint opens with the same content and the original keeps working. */
    @Test
    public void checkpointOpensWithTheSameContentAndTheOriginalKeepsWorking() {
        Store store = storeWithOrderedKeys();
        store.commit(new WriteBatch().put(OTHER, b(0x01), b(1)).merge(COUNTS, b(0x01), 40).merge(COUNTS, b(0x02), -2),
                Durability.ASYNC);
        Path target = tempDir.resolve("checkpoint");
        store.checkpoint(target);

        Store copy = openAt(target, FAMILIES, false);
        for (FamilySpec family : FAMILIES) {
            assertThat(scanAll(copy, family.name(), KeyRange.all(), Direction.FORWARD)).as(family.name())
                    .isEqualTo(scanAll(store, family.name(), KeyRange.all(), Direction.FORWARD));
        }
        assertThat(copy.counters(COUNTS, List.of(b(0x01), b(0x02)))).containsExactly(40, -2);

        store.commit(new WriteBatch().put(PLAIN, b(0x42), b(1)).merge(COUNTS, b(0x01), 1), Durability.SYNC);
        copy.commit(new WriteBatch().put(PLAIN, b(0x43), b(1)).merge(COUNTS, b(0x01), 100), Durability.SYNC);
        assertThat(store.get(PLAIN, b(0x42))).as("original keeps working").isPresent();
        assertThat(store.get(PLAIN, b(0x43))).isEmpty();
        assertThat(store.counter(COUNTS, b(0x01))).isEqualTo(41);
        assertThat(copy.get(PLAIN, b(0x42))).isEmpty();
        assertThat(copy.counter(COUNTS, b(0x01))).isEqualTo(140);
    }

    /**
     * A checkpoint into an existing directory is refused.
     *
     * @throws IOException when the test cannot create the directory
     */
    @Test
    public void checkpointIntoAnExistingDirectoryIsRefused() throws IOException {
        Store store = storeWithOrderedKeys();
        Path target = Files.createDirectories(tempDir.resolve("taken"));
        Files.writeString(target.resolve("keep.txt"), "mine");
        assertThatThrownBy(() -> store.checkpoint(target)).isInstanceOf(StoreException.class);
        assertThat(Files.readString(target.resolve("keep.txt"))).isEqualTo("mine");
    }

    /**
     * A corrupt data file makes reads throw rather than end early.
     *
     * @throws IOException when the store's files cannot be damaged
     */
    @Test
    public void corruptDataFileMakesReadsThrowRatherThanEndEarly() throws IOException {
        assumeTrue(supportsCorruptionInjection(), backend() + " declares no corruption injection");
        Path dir = storeDir();
        int rows = 20_000;
        try (Store store = openAt(dir, FAMILIES, true)) {
            for (int from = 0; from < rows; from += 1_000) {
                WriteBatch batch = new WriteBatch();
                for (int i = from; i < from + 1_000; i++) {
                    batch.put(PLAIN, rowKey(i), rowValue(i));
                }
                store.commit(batch, Durability.SYNC);
            }
        }
        // A second open and close lets a backend that replays a log on open move it into data files.
        try (Store store = openAt(dir, FAMILIES, false)) {
            assertThat(scanAll(store, PLAIN, KeyRange.all(), Direction.FORWARD)).hasSize(rows);
        }
        corruptDataFiles(dir);

        Store store;
        try {
            store = openAt(dir, FAMILIES, false);
        } catch (StoreCorruptionException refusedAtOpen) {
            return;
        }
        assertScanFailsLoudly(store, Direction.FORWARD, rows);
        assertScanFailsLoudly(store, Direction.REVERSE, rows);
        int failedChunks = 0;
        for (int from = 0; from < rows; from += 500) {
            List<byte[]> keys = new ArrayList<>();
            for (int i = from; i < from + 500; i++) {
                keys.add(rowKey(i));
            }
            List<Optional<byte[]>> values;
            try {
                values = store.multiGet(PLAIN, keys);
            } catch (StoreCorruptionException expected) {
                failedChunks++;
                continue;
            }
            for (int i = 0; i < keys.size(); i++) {
                int row = from + i;
                assertThat(values.get(i)).as("row %d: a corrupt entry must throw, never read as absent", row)
                        .hasValueSatisfying(v -> assertThat(v).as("row %d value", row).isEqualTo(rowValue(row)));
            }
        }
        assertThat(failedChunks).as("multiGet chunks that met the corruption").isPositive();
    }

    private static void assertScanFailsLoudly(Store store, Direction direction, int rows) {
        int seen = 0;
        try (Scan scan = store.scan(PLAIN, KeyRange.all(), direction)) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                int row = rowOf(kv.key());
                assertThat(kv.value()).as("%s scan returned row %d with a corrupt value", direction, row)
                        .isEqualTo(rowValue(row));
                seen++;
            }
        } catch (StoreCorruptionException expected) {
            return;
        }
        fail("%s scan over a corrupt data file ended quietly after %d of %d rows", direction, seen, rows);
    }

    // ---- refusals --------------------------------------------------------------------------

    /** An unknown family is refused by every call. */
    @Test
    public void unknownFamilyIsRefusedByEveryCall() {
        Store store = openStore();
        String family = "undeclared";
        List<ThrowingCallable> calls = List.of(
                () -> store.get(family, b(0x01)),
                () -> store.multiGet(family, List.of(b(0x01))),
                () -> store.counter(family, b(0x01)),
                () -> store.counters(family, List.of(b(0x01))),
                () -> store.scan(family, KeyRange.all()).close(),
                () -> store.scan(family, KeyRange.all(), Direction.REVERSE).close(),
                () -> store.commit(new WriteBatch().delete(family, b(0x01)), Durability.SYNC),
                () -> store.commit(new WriteBatch().deleteRange(family, b(0x01), b(0x02)), Durability.ASYNC),
                () -> store.commit(new WriteBatch().merge(family, b(0x01), 1), Durability.ASYNC));
        for (ThrowingCallable call : calls) {
            assertThatThrownBy(call).isInstanceOf(UnknownFamilyException.class)
                    .extracting(e -> ((StoreException) e).reason()).isEqualTo(StoreError.UNKNOWN_FAMILY);
        }
    }

    /** Empty keys are refused. */
    @Test
    public void emptyKeysAreRefused() {
        Store store = openStore();
        byte[] empty = new byte[0];
        assertRefused(() -> new WriteBatch().put(PLAIN, empty, b(1)), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> new WriteBatch().delete(PLAIN, empty), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> new WriteBatch().merge(COUNTS, empty, 1), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> store.get(PLAIN, empty), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> store.multiGet(PLAIN, List.of(b(0x01), empty)), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> store.counter(COUNTS, empty), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> store.counters(COUNTS, List.of(empty)), StoreError.INVALID_ARGUMENT);
        store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)), Durability.SYNC);
        assertThat(store.get(PLAIN, b(0x01))).as("store keeps working").isPresent();
    }

    /** Inverted ranges are refused. */
    @Test
    public void invertedRangesAreRefused() {
        assertRefused(() -> new WriteBatch().deleteRange(PLAIN, b(0x80), b(0x7F)), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> new WriteBatch().deleteRange(PLAIN, b(0x00, 0x00), b(0x00)), StoreError.INVALID_ARGUMENT);
        assertRefused(() -> KeyRange.of(b(0xFF), b(0x00)), StoreError.INVALID_ARGUMENT);
        Store store = storeWithOrderedKeys();
        assertThat(scanAll(store, PLAIN, KeyRange.all(), Direction.FORWARD)).hasSize(ORDERED_KEYS.size());
    }

    /** Every call after close throws {@code StoreClosedException}. */
    @Test
    public void everyCallAfterCloseThrowsStoreClosed() {
        Store store = storeWithOrderedKeys();
        store.close();
        store.close();
        List<ThrowingCallable> calls = List.of(
                () -> store.get(PLAIN, b(0x01)),
                () -> store.multiGet(PLAIN, List.of(b(0x01))),
                () -> store.counter(COUNTS, b(0x01)),
                () -> store.counters(COUNTS, List.of(b(0x01))),
                () -> store.scan(PLAIN, KeyRange.all()).close(),
                () -> store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)), Durability.SYNC),
                () -> store.commit(new WriteBatch(), Durability.ASYNC),
                () -> store.checkpoint(tempDir.resolve("after-close")));
        for (ThrowingCallable call : calls) {
            assertThatThrownBy(call).isInstanceOf(StoreClosedException.class)
                    .extracting(e -> ((StoreException) e).reason()).isEqualTo(StoreError.CLOSED);
        }
    }

    /** A second open of the same directory is locked. */
    @Test
    public void secondOpenOfTheSameDirectoryIsLocked() {
        Path dir = storeDir();
        Store first = openAt(dir, FAMILIES, true);
        first.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)), Durability.SYNC);
        assertThatThrownBy(() -> openAt(dir, FAMILIES, true)).isInstanceOf(StoreLockedException.class)
                .extracting(e -> ((StoreException) e).reason()).isEqualTo(StoreError.LOCKED);
        assertThat(first.get(PLAIN, b(0x01))).as("first store unharmed").isPresent();
        first.close();
        assertThat(openAt(dir, FAMILIES, false).get(PLAIN, b(0x01))).as("open after the holder closed").isPresent();
    }

    /** A reopen with a family kind changed is refused and loses nothing. */
    @Test
    public void reopenWithAFamilyKindChangedIsRefusedAndLosesNothing() {
        Path dir = storeDir();
        Store store = openAt(dir, FAMILIES, true);
        store.commit(new WriteBatch().merge(COUNTS, b(0x01), 5).merge(COUNTS, b(0x01), 6).put(PLAIN, b(0x01), b(1)),
                Durability.SYNC);
        store.close();
        List<FamilySpec> counterAsPlain =
                List.of(FamilySpec.plain(PLAIN), FamilySpec.plain(OTHER), FamilySpec.plain(COUNTS));
        List<FamilySpec> plainAsCounter =
                List.of(FamilySpec.counter(PLAIN), FamilySpec.plain(OTHER), FamilySpec.counter(COUNTS));
        assertRefused(() -> openAt(dir, counterAsPlain, false), StoreError.FAMILY_MISMATCH);
        assertRefused(() -> openAt(dir, plainAsCounter, true), StoreError.FAMILY_MISMATCH);
        Store reopened = openAt(dir, FAMILIES, false);
        assertThat(reopened.counter(COUNTS, b(0x01))).as("merge operands kept").isEqualTo(11);
        assertThat(reopened.get(PLAIN, b(0x01))).isPresent();
    }

    /** A reopen without a family the store holds is refused. */
    @Test
    public void reopenWithoutAFamilyTheStoreHoldsIsRefused() {
        Path dir = storeDir();
        openAt(dir, FAMILIES, true).close();
        assertRefused(() -> openAt(dir, List.of(FamilySpec.plain(PLAIN), FamilySpec.counter(COUNTS)), false),
                StoreError.FAMILY_MISMATCH);
        assertThat(openAt(dir, FAMILIES, false).families()).isEqualTo(FAMILIES);
    }

    /** A store written by another backend is refused. */
    @Test
    public void aStoreWrittenByAnotherBackendIsRefused() {
        Path dir = storeDir();
        openAt(dir, FAMILIES, true).close();
        String other = Stores.providers().stream().map(p -> p.name())
                .filter(name -> !name.equals(backend())).findFirst().orElseThrow();
        assertThatThrownBy(() -> Stores.open(other, StoreOptions.create(dir, FAMILIES)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.BACKEND_MISMATCH))
                .hasMessageContaining(backend());
        assertThat(FamilyCatalog.backend(dir)).contains(backend());
        assertThat(openAt(dir, FAMILIES, false).families()).isEqualTo(FAMILIES);
    }

    /** A reopen with an added family creates it and keeps data. */
    @Test
    public void reopenWithAnAddedFamilyCreatesItAndKeepsData() {
        Path dir = storeDir();
        Store store = openAt(dir, FAMILIES, true);
        store.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)), Durability.SYNC);
        store.close();
        List<FamilySpec> more = new ArrayList<>(FAMILIES);
        more.add(FamilySpec.counter("extra"));
        Store reopened = openAt(dir, more, false);
        assertThat(reopened.get(PLAIN, b(0x01))).isPresent();
        assertThat(scanAll(reopened, "extra", KeyRange.all(), Direction.FORWARD)).isEmpty();
        reopened.commit(new WriteBatch().merge("extra", b(0x01), 2), Durability.SYNC);
        reopened.close();
        assertRefused(() -> openAt(dir, FAMILIES, false), StoreError.FAMILY_MISMATCH);
        assertThat(openAt(dir, more, false).counter("extra", b(0x01))).isEqualTo(2);
    }

    /**
     * An open without create finds no store in an empty or missing directory.
     *
     * @throws IOException when the test cannot create the empty directory
     */
    @Test
    public void openWithoutCreateFindsNoStoreInAnEmptyOrMissingDirectory() throws IOException {
        Path empty = Files.createDirectories(tempDir.resolve("empty"));
        assertRefused(() -> openAt(empty, FAMILIES, false), StoreError.NOT_FOUND);
        assertRefused(() -> openAt(tempDir.resolve("missing"), FAMILIES, false), StoreError.NOT_FOUND);
        Store created = openAt(empty, FAMILIES, true);
        created.commit(new WriteBatch().put(PLAIN, b(0x01), b(1)), Durability.SYNC);
        created.close();
        assertThat(openAt(empty, FAMILIES, false).get(PLAIN, b(0x01))).isPresent();
    }

    /** Unknown settings are refused. */
    @Test
    public void unknownSettingsAreRefused() {
        Path dir = storeDir();
        assertRefused(() -> track(open(StoreOptions.create(dir, FAMILIES).with("ankusa.conformance.nonsense", "1"))),
                StoreError.INVALID_ARGUMENT);
        assertThat(openAt(dir, FAMILIES, true).families()).as("a refused open leaves the directory usable")
                .isEqualTo(FAMILIES);
    }

    // ---- the model -------------------------------------------------------------------------

    /** Behaves like a sorted-map model under random operation sequences (seeded; the seed of a failure replays it). */
    @Test
    public void behavesLikeASortedMapModelUnderRandomOperationSequences() {
        ActionSequenceCheck<ModelledStore> check = ActionSequenceCheck
                .<ModelledStore>named(backend() + " store matches a sorted-map model")
                .config(PropertyConfig.of(8, 60))
                .subject(() -> new ModelledStore(freshDirectory(), FAMILIES, this::open))
                .invariant(ModelledStore::assertMatchesModel);
        StoreActions.addTo(check).run();
    }

    // ---- helpers ---------------------------------------------------------------------------

    /**
     * Opens (or creates) a store in {@code directory}; it is closed after the test.
     *
     * @param directory where the store lives
     * @param families  the column families it must hold
     * @param create    whether to create the store when there is none
     * @return the open store, tracked so that it is closed after the test
     */
    protected final Store openAt(Path directory, List<FamilySpec> families, boolean create) {
        return track(open(new StoreOptions(directory, families, create, Map.of())));
    }

    /** Closes every store the test opened, after each test; a close that fails does not hide the test's own outcome. */
    @AfterEach
    public void closeOpenedStores() {
        for (Store store : opened) {
            try {
                store.close();
            } catch (RuntimeException e) {
                // the test already reported what matters
            }
        }
        opened.clear();
    }

    private Store track(Store store) {
        opened.add(store);
        return store;
    }

    private Path storeDir() {
        return tempDir.resolve("store");
    }

    private Path freshDirectory() {
        try {
            return Files.createTempDirectory(tempDir, "try");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Store openStore() {
        return openAt(storeDir(), FAMILIES, true);
    }

    private Store storeWithOrderedKeys() {
        Store store = openStore();
        List<byte[]> shuffled = new ArrayList<>(ORDERED_KEYS);
        Collections.shuffle(shuffled, new Random(7));
        WriteBatch batch = new WriteBatch();
        for (byte[] key : shuffled) {
            batch.put(PLAIN, key, key);
        }
        store.commit(batch, Durability.SYNC);
        return store;
    }

    private static void assertRange(Store store, KeyRange range, byte[]... expected) {
        List<String> forward = hex(Arrays.asList(expected));
        assertThat(keys(scanAll(store, PLAIN, range, Direction.FORWARD))).as("forward %s", range).isEqualTo(forward);
        List<String> reverse = new ArrayList<>(forward);
        Collections.reverse(reverse);
        assertThat(keys(scanAll(store, PLAIN, range, Direction.REVERSE))).as("reverse %s", range).isEqualTo(reverse);
    }

    private static void assertRefused(ThrowingCallable call, StoreError reason) {
        assertThatThrownBy(call).isInstanceOf(StoreException.class)
                .extracting(e -> ((StoreException) e).reason()).isEqualTo(reason);
    }

    private static List<KeyValue> scanAll(Store store, String family, KeyRange range, Direction direction) {
        return ModelledStore.scan(store, family, range, direction);
    }

    private static List<KeyValue> scanAll(Store store, String family, KeyRange range) {
        List<KeyValue> out = new ArrayList<>();
        try (Scan scan = store.scan(family, range)) {
            scan.forEachRemaining(out::add);
        }
        return out;
    }

    private static List<String> keys(List<KeyValue> rows) {
        return rows.stream().map(kv -> Bytes.hex(kv.key())).toList();
    }

    private static List<String> hex(List<byte[]> keys) {
        return keys.stream().map(Bytes::hex).toList();
    }

    private static byte[] rowKey(int row) {
        return new byte[] {'r', (byte) (row >>> 24), (byte) (row >>> 16), (byte) (row >>> 8), (byte) row};
    }

    private static int rowOf(byte[] key) {
        return ((key[1] & 0xFF) << 24) | ((key[2] & 0xFF) << 16) | ((key[3] & 0xFF) << 8) | (key[4] & 0xFF);
    }

    private static byte[] rowValue(int row) {
        byte[] value = new byte[100];
        new SplittableRandom(row).nextBytes(value);
        return value;
    }

    /**
     * Bytes from ints (0x00–0xFF).
     *
     * @param values byte values, each 0x00–0xFF
     * @return the bytes, in order
     */
    protected static byte[] b(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }
}
