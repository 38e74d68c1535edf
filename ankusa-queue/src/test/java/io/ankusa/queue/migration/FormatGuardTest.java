package io.ankusa.queue.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.StoreFormatNewerException;
import io.ankusa.keys.AttemptKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.KeyFamilies;
import io.ankusa.keys.KeyFamily;
import io.ankusa.keys.MetaKeys;
import io.ankusa.queue.Queue;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.StoreSnapshot;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FormatGuardTest {

    @TempDir
    Path dir;

    private static Store rawStore(String backend, Path dir) {
        return Stores.open(backend, StoreOptions.create(dir, StoreLayout.families()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aNewStoreGetsEveryFamilyEverySentinelAndTheFormat3Stamp(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            Store store = q.store();
            assertThat(store.families()).extracting(FamilySpec::name)
                    .containsExactly("default", "hooks", "deliveries", "index", "tenants", "counters", "audit", "ordering");
            assertThat(store.families()).filteredOn(f -> f.kind() == FamilyKind.COUNTER).extracting(FamilySpec::name)
                    .containsExactly("counters");
            assertThat(store.get(ColumnFamilies.DEFAULT, MetaKeys.FORMAT)).hasValueSatisfying(
                    v -> assertThat(MetaKeys.decodeU32("m:format", v)).isEqualTo(3));
            for (KeyFamily family : KeyFamilies.ALL) {
                if (family.columnFamily().equals(ColumnFamilies.COUNTERS)) {
                    continue;
                }
                assertThat(store.get(family.columnFamily(), family.lo())).as(family.name() + " lo").isPresent();
                assertThat(store.get(family.columnFamily(), family.hi())).as(family.name() + " hi").isPresent();
            }
            IndexFold.of(store).assertCountersMatch(store);
            assertThat(store.get(ColumnFamilies.DEFAULT, MetaKeys.HISTORY_COUNTED)).as("stamped as counted").isPresent();
            assertThat(q.queue().tenantCount()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aStoreOfANewerFormatIsRefusedBeforeAnythingIsWritten(String backend) {
        QueueUnderTest.open(backend, dir).close();
        List<String> before;
        try (Store store = rawStore(backend, dir)) {
            store.commit(new WriteBatch().put(ColumnFamilies.DEFAULT, MetaKeys.FORMAT, MetaKeys.u32Value(4)), Durability.SYNC);
            before = StoreSnapshot.of(store);
        }
        QueueConfig config = QueueConfig.builder(dir).backend(backend).build();
        assertThatThrownBy(() -> Queue.open(config)).isInstanceOfSatisfying(StoreFormatNewerException.class, e -> {
            assertThat(e.found()).isEqualTo(4);
            assertThat(e.supported()).isEqualTo(3);
            assertThat(e.error()).isEqualTo("store_format_newer");
        });
        try (Store store = rawStore(backend, dir)) {
            assertThat(StoreSnapshot.of(store)).isEqualTo(before);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anOlderStoreWithNoMigrationFromItsFormatIsRefusedWithMigrationMissing(String backend) {
        try (Store store = rawStore(backend, dir)) {
            store.commit(new WriteBatch().put(ColumnFamilies.DEFAULT, MetaKeys.FORMAT, MetaKeys.u32Value(1)), Durability.SYNC);
        }
        assertThatThrownBy(() -> Queue.open(QueueConfig.builder(dir).backend(backend).build()))
                .isInstanceOfSatisfying(AnkusaException.class, e -> assertThat(e.error()).isEqualTo("migration_missing"))
                .hasMessageContaining("format 1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aStoreWithDataButNoStampIsRefusedAsCorrupt(String backend) {
        try (Store store = rawStore(backend, dir)) {
            store.commit(new WriteBatch().put(ColumnFamilies.HOOKS, new byte[] {0, 0, 0, 0, 0, 0, 0, 1}, new byte[] {1}),
                    Durability.SYNC);
        }
        assertThatThrownBy(() -> Queue.open(QueueConfig.builder(dir).backend(backend).build()))
                .isInstanceOf(StoreCorruptionException.class).hasMessageContaining("no format stamp");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aStoreWrittenBeforeTheHistoryCounterHasItsHistoryCountedOnceAtOpen(String backend) {
        QueueUnderTest.open(backend, dir).close();
        byte[] hookId = "msg_1".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        AttemptKey first = new AttemptKey(1, 1_000, 7, 0, 1);
        AttemptKey second = new AttemptKey(2, 2_000, 8, 1, 2);
        try (Store store = rawStore(backend, dir)) {
            // What a release before the counter left: history keys, no history_bytes, no marker.
            WriteBatch older = new WriteBatch().delete(ColumnFamilies.DEFAULT, MetaKeys.HISTORY_COUNTED);
            for (AttemptKey key : List.of(first, second)) {
                older.put(ColumnFamilies.INDEX, key.encodeByTenant(), new byte[] {1, 2, 3});
                older.put(ColumnFamilies.INDEX, key.encodeByHook(hookId), new byte[] {1, 2, 3});
            }
            older.put(ColumnFamilies.INDEX, AttemptKey.slotKey(2, 8, 1, 1), second.slotValue());
            store.commit(older, Durability.SYNC);
        }
        long expected = 2L * (AttemptKey.TENANT_KEY_LENGTH + 3) + 2L * (7 + hookId.length + 22 + 3)
                + AttemptKey.SLOT_KEY_LENGTH + AttemptKey.SLOT_VALUE_LENGTH;
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            assertThat(q.queue().diskUsage().historyBytes()).as("counted at open").isEqualTo(expected);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
            assertThat(q.store().get(ColumnFamilies.DEFAULT, MetaKeys.HISTORY_COUNTED)).isPresent();
        }
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            assertThat(q.queue().diskUsage().historyBytes()).as("not counted twice").isEqualTo(expected);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }
}
