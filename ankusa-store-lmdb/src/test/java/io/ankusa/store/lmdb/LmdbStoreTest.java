package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.COUNTS;
import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static io.ankusa.store.lmdb.TestStores.drain;
import static io.ankusa.store.lmdb.TestStores.keys;
import static io.ankusa.store.lmdb.TestStores.text;
import static io.ankusa.store.lmdb.TestStores.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.UnknownFamilyException;
import io.ankusa.store.WriteBatch;
import io.ankusa.store.spi.CounterCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Env;

class LmdbStoreTest {

    @TempDir
    Path dir;

    @Test
    void isFoundByNameThroughServiceLoader() {
        assertThat(Stores.provider("lmdb")).get().isInstanceOf(LmdbStoreProvider.class);
        try (Store store = Stores.open("lmdb", TestStores.options(dir))) {
            assertThat(store.backend()).isEqualTo("lmdb");
            assertThat(store.directory()).isEqualTo(dir);
            assertThat(store.families()).isEqualTo(TestStores.FAMILIES);
        }
    }

    @Test
    void putGetDeleteAndMultiGetFromOneView() {
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch().put(PLAIN, utf8("a"), utf8("1")).put(PLAIN, utf8("b"), utf8("2")),
                    Durability.SYNC);
            store.commit(new WriteBatch().delete(PLAIN, utf8("a")).delete(PLAIN, utf8("never")), Durability.ASYNC);

            assertThat(store.get(PLAIN, utf8("a"))).isEmpty();
            assertThat(store.get(PLAIN, utf8("b"))).map(TestStores::text).contains("2");
            List<Optional<byte[]>> values = store.multiGet(PLAIN, List.of(utf8("a"), utf8("b"), utf8("c")));
            assertThat(values).hasSize(3);
            assertThat(values.get(0)).isEmpty();
            assertThat(values.get(1)).map(TestStores::text).contains("2");
            assertThat(values.get(2)).isEmpty();
        }
    }

    @Test
    void emptyValuesAndLongestKeysRoundTrip() {
        byte[] longest = new byte[LmdbStore.MAX_KEY_BYTES];
        longest[0] = 'L';
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch().put(PLAIN, utf8("empty"), new byte[0]).put(PLAIN, longest, utf8("x")),
                    Durability.ASYNC);
            assertThat(store.get(PLAIN, utf8("empty"))).hasValueSatisfying(v -> assertThat(v).isEmpty());
            assertThat(store.get(PLAIN, longest)).map(TestStores::text).contains("x");
        }
    }

    @Test
    void theKeyLimitIsLmdbs() {
        try (Env<byte[]> env = Env.create(ByteArrayProxy.PROXY_BA).open(dir.toFile())) {
            assertThat(env.getMaxKeySize()).isEqualTo(LmdbStore.MAX_KEY_BYTES);
        }
    }

    @Test
    void returnedArraysBelongToTheCaller() {
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch().put(PLAIN, utf8("k"), utf8("value")), Durability.ASYNC);
            byte[] first = store.get(PLAIN, utf8("k")).orElseThrow();
            first[0] = 'X';
            assertThat(store.get(PLAIN, utf8("k"))).map(TestStores::text).contains("value");
        }
    }

    @Test
    void scansForwardAndReverseOverHalfOpenRanges() {
        try (Store store = TestStores.open(dir)) {
            WriteBatch batch = new WriteBatch();
            for (String key : List.of("a", "b", "ba", "bb", "c", "d")) {
                batch.put(PLAIN, utf8(key), utf8("v" + key));
            }
            store.commit(batch, Durability.ASYNC);

            assertThat(keys(store.scan(PLAIN, KeyRange.all()))).containsExactly("a", "b", "ba", "bb", "c", "d");
            assertThat(keys(store.scan(PLAIN, KeyRange.all(), Direction.REVERSE)))
                    .containsExactly("d", "c", "bb", "ba", "b", "a");
            assertThat(keys(store.scan(PLAIN, KeyRange.of(utf8("b"), utf8("c"))))).containsExactly("b", "ba", "bb");
            assertThat(keys(store.scan(PLAIN, KeyRange.of(utf8("b"), utf8("c")), Direction.REVERSE)))
                    .containsExactly("bb", "ba", "b");
            assertThat(keys(store.scan(PLAIN, KeyRange.prefix(utf8("b")), Direction.REVERSE)))
                    .containsExactly("bb", "ba", "b");
            assertThat(keys(store.scan(PLAIN, KeyRange.atLeast(utf8("bb"))))).containsExactly("bb", "c", "d");
            assertThat(keys(store.scan(PLAIN, KeyRange.atLeast(utf8("bb")), Direction.REVERSE)))
                    .containsExactly("d", "c", "bb");
            // bounds between keys, past the end, before the start, and empty ranges
            assertThat(keys(store.scan(PLAIN, KeyRange.of(utf8("a0"), utf8("bz")), Direction.REVERSE)))
                    .containsExactly("bb", "ba", "b");
            assertThat(keys(store.scan(PLAIN, KeyRange.of(utf8("c0"), utf8("z")), Direction.REVERSE)))
                    .containsExactly("d");
            assertThat(keys(store.scan(PLAIN, KeyRange.of(utf8("0"), utf8("a")), Direction.REVERSE))).isEmpty();
            assertThat(keys(store.scan(PLAIN, KeyRange.of(utf8("b"), utf8("b"))))).isEmpty();
            assertThat(keys(store.scan(PLAIN, KeyRange.of(new byte[0], new byte[0]), Direction.REVERSE))).isEmpty();
            assertThat(keys(store.scan(PLAIN, KeyRange.atLeast(utf8("e"))))).isEmpty();
            assertThat(drain(store.scan(PLAIN, KeyRange.prefix(utf8("ba")))))
                    .singleElement().satisfies(kv -> assertThat(text(kv.value())).isEqualTo("vba"));
        }
    }

    @Test
    void aScanSeesTheViewOfWhenItWasOpened() {
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch().put(PLAIN, utf8("a"), utf8("1")).put(PLAIN, utf8("b"), utf8("1")),
                    Durability.ASYNC);
            try (Scan scan = store.scan(PLAIN, KeyRange.all())) {
                store.commit(new WriteBatch().delete(PLAIN, utf8("b")).put(PLAIN, utf8("c"), utf8("1")),
                        Durability.ASYNC);
                assertThat(keys(scan)).containsExactly("a", "b");
            }
            assertThat(keys(store.scan(PLAIN, KeyRange.all()))).containsExactly("a", "c");
        }
    }

    @Test
    void oneThreadMayHoldSeveralScansAndHandThemToAnother() throws Exception {
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch().put(PLAIN, utf8("a"), utf8("1")).put(PLAIN, utf8("b"), utf8("2")),
                    Durability.ASYNC);
            Scan first = store.scan(PLAIN, KeyRange.all());
            Scan second = store.scan(PLAIN, KeyRange.all(), Direction.REVERSE);
            assertThat(text(first.next().key())).isEqualTo("a");
            ExecutorService other = Executors.newSingleThreadExecutor();
            try {
                assertThat(other.submit(() -> keys(first)).get()).containsExactly("b");
            } finally {
                other.shutdown();
            }
            assertThat(keys(second)).containsExactly("b", "a");
        }
    }

    @Test
    void deleteRangeRemovesExactlyTheHalfOpenRange() {
        try (Store store = TestStores.open(dir)) {
            WriteBatch fill = new WriteBatch();
            for (int i = 0; i < 2_000; i++) { // enough to span many pages
                fill.put(PLAIN, utf8(String.format("k%05d", i)), new byte[64]);
            }
            store.commit(fill, Durability.ASYNC);

            store.commit(new WriteBatch()
                    .deleteRange(PLAIN, utf8("k00010"), utf8("k01990"))
                    .deleteRange(PLAIN, utf8("k01995"), utf8("k01995"))
                    .deleteRange(PLAIN, utf8("x"), utf8("y")), Durability.ASYNC);

            List<String> left = keys(store.scan(PLAIN, KeyRange.all()));
            assertThat(left).hasSize(20).startsWith("k00000", "k00001").contains("k00009", "k01990", "k01999")
                    .doesNotContain("k00010", "k01989");
            store.commit(new WriteBatch().deleteRange(PLAIN, new byte[0], utf8("k01995")), Durability.ASYNC);
            assertThat(keys(store.scan(PLAIN, KeyRange.all())))
                    .containsExactly("k01995", "k01996", "k01997", "k01998", "k01999");
        }
    }

    @Test
    void opsOfABatchApplyInOrderAndMergesSeeEarlierOnesOfTheSameBatch() {
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch()
                    .put(PLAIN, utf8("k"), utf8("first"))
                    .delete(PLAIN, utf8("k"))
                    .put(PLAIN, utf8("k"), utf8("second"))
                    .merge(COUNTS, utf8("c"), 5)
                    .merge(COUNTS, utf8("c"), -2)
                    .merge(COUNTS, utf8("c"), 10), Durability.ASYNC);
            assertThat(store.get(PLAIN, utf8("k"))).map(TestStores::text).contains("second");
            assertThat(store.counter(COUNTS, utf8("c"))).isEqualTo(13);
        }
    }

    @Test
    void countersAreZeroWhenAbsentWrapAroundAndScanAsLittleEndian() {
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch()
                    .merge(COUNTS, utf8("max"), Long.MAX_VALUE)
                    .merge(COUNTS, utf8("max"), 1)
                    .merge(COUNTS, utf8("neg"), -7), Durability.ASYNC);
            assertThat(store.counter(COUNTS, utf8("absent"))).isZero();
            assertThat(store.counters(COUNTS, List.of(utf8("max"), utf8("absent"), utf8("neg"))))
                    .containsExactly(Long.MIN_VALUE, 0, -7);
            assertThat(drain(store.scan(COUNTS, KeyRange.all())))
                    .extracting(kv -> CounterCodec.decode(kv.value()))
                    .containsExactly(Long.MIN_VALUE, -7L);
            assertThat(drain(store.scan(COUNTS, KeyRange.all())).get(1).value())
                    .isEqualTo(CounterCodec.encode(-7));
        }
    }

    @Test
    void aRefusedBatchWritesNothing() {
        try (Store store = TestStores.open(dir)) {
            WriteBatch putIntoCounters = new WriteBatch().put(PLAIN, utf8("a"), utf8("1"))
                    .put(COUNTS, utf8("c"), CounterCodec.encode(1));
            assertThatThrownBy(() -> store.commit(putIntoCounters, Durability.SYNC))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            WriteBatch mergeIntoPlain = new WriteBatch().put(PLAIN, utf8("a"), utf8("1")).merge(PLAIN, utf8("a"), 1);
            assertThatThrownBy(() -> store.commit(mergeIntoPlain, Durability.SYNC))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            WriteBatch unknown = new WriteBatch().put(PLAIN, utf8("a"), utf8("1")).put("nope", utf8("a"), utf8("1"));
            assertThatThrownBy(() -> store.commit(unknown, Durability.SYNC))
                    .isInstanceOf(UnknownFamilyException.class);
            WriteBatch longKeyLast = new WriteBatch().put(PLAIN, utf8("a"), utf8("1"))
                    .merge(COUNTS, utf8("c"), 1).put(PLAIN, new byte[LmdbStore.MAX_KEY_BYTES + 1], utf8("1"));
            assertThatThrownBy(() -> store.commit(longKeyLast, Durability.SYNC))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));

            assertThat(store.get(PLAIN, utf8("a"))).isEmpty();
            assertThat(store.counter(COUNTS, utf8("c"))).isZero();
        }
    }

    @Test
    void readsCheckFamilyKindsAndKeys() {
        try (Store store = TestStores.open(dir)) {
            assertThatThrownBy(() -> store.get("nope", utf8("a"))).isInstanceOf(UnknownFamilyException.class);
            assertThatThrownBy(() -> store.scan("nope", KeyRange.all())).isInstanceOf(UnknownFamilyException.class);
            assertThatThrownBy(() -> store.get(COUNTS, utf8("a")))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            assertThatThrownBy(() -> store.counter(PLAIN, utf8("a")))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            assertThatThrownBy(() -> store.get(PLAIN, new byte[0]))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            assertThatThrownBy(() -> store.multiGet(PLAIN, List.of(utf8("a"), new byte[LmdbStore.MAX_KEY_BYTES + 1])))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            assertThat(store.get(PLAIN, new byte[LmdbStore.MAX_KEY_BYTES])).isEmpty();
        }
    }

    @Test
    void anEmptySyncBatchIsAccepted() {
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch().put(PLAIN, utf8("a"), utf8("1")), Durability.ASYNC);
            store.commit(new WriteBatch(), Durability.SYNC);
            store.commit(new WriteBatch(), Durability.ASYNC);
            assertThat(store.get(PLAIN, utf8("a"))).isPresent();
        }
    }

    @Test
    void usingAClosedStoreThrowsAndCloseIsIdempotent() {
        Store store = TestStores.open(dir);
        store.close();
        store.close();
        assertThatThrownBy(() -> store.get(PLAIN, utf8("a"))).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.multiGet(PLAIN, List.of(utf8("a")))).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.counter(COUNTS, utf8("a"))).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.scan(PLAIN, KeyRange.all())).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.commit(new WriteBatch(), Durability.SYNC))
                .isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.checkpoint(dir.resolve("cp"))).isInstanceOf(StoreClosedException.class);
    }

    @Test
    void closingTheStoreInvalidatesOpenScans() {
        Store store = TestStores.open(dir);
        store.commit(new WriteBatch().put(PLAIN, utf8("a"), utf8("1")).put(PLAIN, utf8("b"), utf8("2")),
                Durability.ASYNC);
        Scan started = store.scan(PLAIN, KeyRange.all());
        assertThat(started.hasNext()).isTrue();
        Scan untouched = store.scan(PLAIN, KeyRange.all());

        store.close();

        assertThatThrownBy(started::hasNext).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(untouched::next).isInstanceOf(StoreClosedException.class);
        started.close();
        untouched.close();
    }

    @Test
    void aClosedScanThrowsRatherThanEndingQuietly() {
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch().put(PLAIN, utf8("a"), utf8("1")), Durability.ASYNC);
            Scan scan = store.scan(PLAIN, KeyRange.all());
            scan.close();
            scan.close();
            assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class);
        }
    }

    @Test
    void refusesToOpenAMissingStoreWithoutCreatingAnything() {
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> TestStores.open(StoreOptions.existing(missing, TestStores.FAMILIES)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.NOT_FOUND));
        assertThat(missing).doesNotExist();

        assertThatThrownBy(() -> TestStores.open(StoreOptions.existing(dir, TestStores.FAMILIES)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.NOT_FOUND));
        assertThat(dir).isEmptyDirectory();

        TestStores.open(dir).close();
        TestStores.open(StoreOptions.existing(dir, TestStores.FAMILIES)).close();
    }

    @Test
    void refusesUnknownSettingsBeforeTouchingTheDirectory() {
        Path target = dir.resolve("store");
        assertThatThrownBy(() -> TestStores.open(new StoreOptions(target, TestStores.FAMILIES, true,
                Map.of("lmdb.mapsize", "1048576"))))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT);
                    assertThat(e).hasMessageContaining("lmdb.mapsize").hasMessageContaining("lmdb.mapSize");
                });
        assertThat(target).doesNotExist();
    }

    @Test
    void checkpointOpensAsAStoreWithTheSameData() {
        Path copy = dir.resolve("copy");
        try (Store store = TestStores.open(dir.resolve("live"))) {
            store.commit(new WriteBatch().put(PLAIN, utf8("a"), utf8("1")).merge(COUNTS, utf8("c"), 42),
                    Durability.ASYNC);
            store.checkpoint(copy);
            store.commit(new WriteBatch().put(PLAIN, utf8("after"), utf8("2")), Durability.ASYNC);
            assertThatThrownBy(() -> store.checkpoint(copy))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
        }
        assertThat(copy.resolve("ankusa-families")).exists();
        try (Store restored = TestStores.open(StoreOptions.existing(copy, TestStores.FAMILIES))) {
            assertThat(keys(restored.scan(PLAIN, KeyRange.all()))).containsExactly("a");
            assertThat(restored.counter(COUNTS, utf8("c"))).isEqualTo(42);
        }
    }

    @Test
    void aDirectoryHoldsNoOtherFilesThanLmdbsAndOurs() throws Exception {
        TestStores.open(dir).close();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("data.mdb", "lock.mdb", "ankusa.lock", "ankusa-families");
        }
    }
}
