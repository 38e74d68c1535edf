package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.COUNTS;
import static io.ankusa.store.rocksdb.TestStores.ITEMS;
import static io.ankusa.store.rocksdb.TestStores.create;
import static io.ankusa.store.rocksdb.TestStores.drain;
import static io.ankusa.store.rocksdb.TestStores.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.UnknownFamilyException;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A malformed batch is refused before it reaches RocksDB, with nothing of it written, and RocksDB
 * keeps taking writes afterwards (no sticky background error).
 */
class BatchValidationTest {

    @TempDir
    Path dir;

    private static void assertRefused(RocksStore store, WriteBatch batch, StoreError reason) {
        assertThatThrownBy(() -> store.commit(batch, Durability.SYNC))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.reason()).isEqualTo(reason));
    }

    private static void assertStillWritable(RocksStore store) {
        store.commit(new WriteBatch().put(ITEMS, key("after"), key("ok")).merge(COUNTS, key("n"), 1),
                Durability.SYNC);
        assertThat(store.get(ITEMS, key("after"))).hasValueSatisfying(v -> assertThat(v).isEqualTo(key("ok")));
        assertThat(store.counter(COUNTS, key("n"))).isEqualTo(1);
    }

    @Test
    void mergeIntoAPlainFamilyIsRefusedWholeAndTheStoreKeepsWriting() {
        try (RocksStore store = create(dir)) {
            assertRefused(store, new WriteBatch().put(ITEMS, key("before"), key("x")).merge(ITEMS, key("m"), 1),
                    StoreError.INVALID_ARGUMENT);
            assertThat(store.get(ITEMS, key("before"))).as("no op of a refused batch is applied").isEmpty();
            assertStillWritable(store);
        }
    }

    @Test
    void putIntoACounterFamilyIsRefused() {
        try (RocksStore store = create(dir)) {
            assertRefused(store, new WriteBatch().merge(COUNTS, key("n"), 5).put(COUNTS, key("n"), key("garbage")),
                    StoreError.INVALID_ARGUMENT);
            assertThat(store.counter(COUNTS, key("n"))).isZero();
            assertStillWritable(store);
        }
    }

    @Test
    void unknownFamilyIsRefused() {
        try (RocksStore store = create(dir)) {
            assertThatThrownBy(() -> store.commit(new WriteBatch().put(ITEMS, key("a"), key("1"))
                    .merge("nope", key("n"), 1), Durability.ASYNC)).isInstanceOf(UnknownFamilyException.class);
            assertThat(store.get(ITEMS, key("a"))).isEmpty();
            assertStillWritable(store);
        }
    }

    @Test
    void emptyDeleteRangeIsANoOpAndDeleteRangeIsHalfOpen() {
        try (RocksStore store = create(dir)) {
            store.commit(new WriteBatch().put(ITEMS, key("a"), key("1")).put(ITEMS, key("b"), key("2"))
                    .put(ITEMS, key("c"), key("3")), Durability.SYNC);
            store.commit(new WriteBatch().deleteRange(ITEMS, key("b"), key("b")), Durability.SYNC);
            assertThat(drain(store.scan(ITEMS, KeyRange.all()))).hasSize(3);
            store.commit(new WriteBatch().deleteRange(ITEMS, key("a"), key("c")), Durability.SYNC);
            assertThat(drain(store.scan(ITEMS, KeyRange.all()))).singleElement()
                    .satisfies(kv -> assertThat(kv.key()).isEqualTo(key("c")));
            assertStillWritable(store);
        }
    }

    @Test
    void invertedDeleteRangeNeverReachesTheStore() {
        assertThatThrownBy(() -> new WriteBatch().deleteRange(ITEMS, key("b"), key("a")))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
    }

    @Test
    void readsCheckTheFamilyKind() {
        try (RocksStore store = create(dir)) {
            assertThatThrownBy(() -> store.get(COUNTS, key("n"))).isInstanceOfSatisfying(StoreException.class,
                    e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            assertThatThrownBy(() -> store.multiGet(COUNTS, List.of(key("n"))))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            assertThatThrownBy(() -> store.counter(ITEMS, key("n"))).isInstanceOfSatisfying(StoreException.class,
                    e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            assertThatThrownBy(() -> store.counters(ITEMS, List.of(key("n"))))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            assertThatThrownBy(() -> store.counter("nope", key("n"))).isInstanceOf(UnknownFamilyException.class);
        }
    }

    @Test
    void emptyKeyReadIsRefused() {
        try (RocksStore store = create(dir)) {
            assertThatThrownBy(() -> store.get(ITEMS, new byte[0])).isInstanceOfSatisfying(StoreException.class,
                    e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
            assertThatThrownBy(() -> store.counters(COUNTS, List.of(key("a"), new byte[0])))
                    .isInstanceOfSatisfying(StoreException.class,
                            e -> assertThat(e.reason()).isEqualTo(StoreError.INVALID_ARGUMENT));
        }
    }
}
