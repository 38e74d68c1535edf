package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.COUNTS;
import static io.ankusa.store.rocksdb.TestStores.FAMILIES;
import static io.ankusa.store.rocksdb.TestStores.ITEMS;
import static io.ankusa.store.rocksdb.TestStores.ITEMS_PLAIN;
import static io.ankusa.store.rocksdb.TestStores.create;
import static io.ankusa.store.rocksdb.TestStores.key;
import static io.ankusa.store.rocksdb.TestStores.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Durability;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.UnknownFamilyException;
import io.ankusa.store.WriteBatch;
import io.ankusa.store.spi.FamilyCatalog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/** Family kinds are persisted and enforced before RocksDB replays its log. */
class FamilyCatalogEnforcementTest {

    @TempDir
    Path dir;

    private static StoreOptions existing(Path dir, FamilySpec... families) {
        return StoreOptions.existing(dir, List.of(families));
    }

    @Test
    void counterFamilyReopenedAsPlainIsRefusedAndItsLoggedOperandsSurvive() {
        try (RocksStore store = create(dir)) {
            // Unsynced and unflushed: the operands live only in the WAL, the case RocksDB would drop.
            store.commit(new WriteBatch().merge(COUNTS, key("c"), 40), Durability.ASYNC);
            store.commit(new WriteBatch().merge(COUNTS, key("c"), 2), Durability.ASYNC);
        }
        assertThatThrownBy(() -> open(existing(dir, ITEMS_PLAIN, FamilySpec.plain(COUNTS))))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.FAMILY_MISMATCH))
                .hasMessageContaining(COUNTS);
        try (RocksStore store = open(StoreOptions.existing(dir, FAMILIES))) {
            assertThat(store.counter(COUNTS, key("c"))).isEqualTo(42);
        }
    }

    @Test
    void plainFamilyReopenedAsCounterIsRefused() {
        try (RocksStore store = create(dir)) {
            store.commit(new WriteBatch().put(ITEMS, key("k"), key("v")), Durability.SYNC);
        }
        assertThatThrownBy(() -> open(existing(dir, FamilySpec.counter(ITEMS), FamilySpec.counter(COUNTS))))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.FAMILY_MISMATCH));
        try (RocksStore store = open(StoreOptions.existing(dir, FAMILIES))) {
            assertThat(store.get(ITEMS, key("k"))).hasValueSatisfying(v -> assertThat(v).isEqualTo(key("v")));
        }
    }

    @Test
    void familyHeldButNotDeclaredIsRefused() {
        create(dir).close();
        assertThatThrownBy(() -> open(existing(dir, ITEMS_PLAIN)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.FAMILY_MISMATCH))
                .hasMessageContaining(COUNTS);
    }

    @Test
    void storeWithoutItsCatalogIsRefusedAsCorrupt() throws Exception {
        create(dir).close();
        Files.delete(dir.resolve(FamilyCatalog.FILE_NAME));
        assertThatThrownBy(() -> open(existing(dir, ITEMS_PLAIN)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.CORRUPTION))
                .hasMessageContaining(FamilyCatalog.FILE_NAME).hasMessageContaining("CURRENT");
        assertThatThrownBy(() -> open(StoreOptions.create(dir, FAMILIES)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.CORRUPTION));
    }

    @Test
    void familyDeclaredLaterIsCreatedAndThenRequired() {
        try (RocksStore store = open(StoreOptions.create(dir, List.of(ITEMS_PLAIN)))) {
            store.commit(new WriteBatch().put(ITEMS, key("k"), key("v")), Durability.SYNC);
        }
        FamilySpec audit = FamilySpec.plain("audit");
        try (RocksStore store = open(existing(dir, ITEMS_PLAIN, audit))) {
            store.commit(new WriteBatch().put("audit", key("a"), key("1")), Durability.SYNC);
            assertThat(store.get(ITEMS, key("k"))).isPresent();
        }
        assertThatThrownBy(() -> open(existing(dir, ITEMS_PLAIN)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.FAMILY_MISMATCH));
    }

    @Test
    void declaredFamiliesAreRocksColumnFamiliesOfTheSameName() throws Exception {
        FamilySpec defaultFamily = FamilySpec.plain("default");
        try (RocksStore store = open(StoreOptions.create(dir, List.of(defaultFamily, ITEMS_PLAIN)))) {
            store.commit(new WriteBatch().put("default", key("m:next_ord"), key("1")), Durability.SYNC);
        }
        try (Options options = new Options()) {
            assertThat(RocksDB.listColumnFamilies(options, dir.toString()))
                    .map(name -> new String(name, StandardCharsets.UTF_8))
                    .containsExactlyInAnyOrder("default", ITEMS);
        }
        try (RocksStore store = open(StoreOptions.existing(dir, List.of(defaultFamily, ITEMS_PLAIN)))) {
            assertThat(store.get("default", key("m:next_ord"))).isPresent();
        }
    }

    @Test
    void rocksDefaultFamilyIsUnreachableUnlessDeclared() {
        try (RocksStore store = create(dir)) {
            assertThatThrownBy(() -> store.commit(new WriteBatch().put("default", key("k"), key("v")),
                    Durability.SYNC)).isInstanceOf(UnknownFamilyException.class);
            assertThatThrownBy(() -> store.scan("default", KeyRange.all())).isInstanceOf(UnknownFamilyException.class);
            assertThatThrownBy(() -> store.get("default", key("k"))).isInstanceOf(UnknownFamilyException.class);
        }
    }
}
