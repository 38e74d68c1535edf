package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.ITEMS;
import static io.ankusa.store.rocksdb.TestStores.bytes;
import static io.ankusa.store.rocksdb.TestStores.create;
import static io.ankusa.store.rocksdb.TestStores.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Iterate bounds, reverse positioning, unsigned order and when a scan frees its iterator. */
class RocksScanTest {

    private static final List<byte[]> KEYS = List.of(bytes(0x00), bytes(0x01), bytes(0x01, 0x00), bytes(0x01, 0xff),
            bytes(0x02), bytes(0x7f), bytes(0x80), bytes(0xff), bytes(0xff, 0xff));

    @TempDir
    Path dir;

    private RocksStore store;

    @BeforeEach
    void fill() {
        store = create(dir);
        WriteBatch batch = new WriteBatch();
        // Added in reverse so that the order seen comes from the store, not the batch.
        for (int i = KEYS.size() - 1; i >= 0; i--) {
            batch.put(ITEMS, KEYS.get(i), bytes(i));
        }
        store.commit(batch, Durability.SYNC);
    }

    private static List<byte[]> reversed(List<byte[]> list) {
        List<byte[]> copy = new ArrayList<>(list);
        Collections.reverse(copy);
        return copy;
    }

    @AfterEach
    void close() {
        store.close();
    }

    private List<byte[]> keys(KeyRange range, Direction direction) {
        return drain(store.scan(ITEMS, range, direction)).stream().map(KeyValue::key).toList();
    }

    @Test
    void wholeFamilyInUnsignedOrderBothWays() {
        assertThat(keys(KeyRange.all(), Direction.FORWARD)).containsExactlyElementsOf(KEYS);
        assertThat(keys(KeyRange.all(), Direction.REVERSE)).containsExactlyElementsOf(reversed(KEYS));
    }

    @Test
    void boundedRangeIsHalfOpenBothWays() {
        KeyRange range = KeyRange.of(bytes(0x01, 0x00), bytes(0x7f));
        List<byte[]> expected = List.of(bytes(0x01, 0x00), bytes(0x01, 0xff), bytes(0x02));
        assertThat(keys(range, Direction.FORWARD)).containsExactlyElementsOf(expected);
        assertThat(keys(range, Direction.REVERSE)).containsExactlyElementsOf(reversed(expected));
    }

    @Test
    void rangeBetweenKeysAndEmptyRanges() {
        KeyRange between = KeyRange.of(bytes(0x03), bytes(0x7f, 0x00));
        assertThat(keys(between, Direction.FORWARD)).containsExactly(bytes(0x7f));
        assertThat(keys(between, Direction.REVERSE)).containsExactly(bytes(0x7f));
        KeyRange empty = KeyRange.of(bytes(0x02), bytes(0x02));
        assertThat(keys(empty, Direction.FORWARD)).isEmpty();
        assertThat(keys(empty, Direction.REVERSE)).isEmpty();
    }

    @Test
    void prefixAndAtLeastRanges() {
        assertThat(keys(KeyRange.prefix(bytes(0x01)), Direction.REVERSE))
                .containsExactly(bytes(0x01, 0xff), bytes(0x01, 0x00), bytes(0x01));
        assertThat(keys(KeyRange.prefix(bytes(0xff)), Direction.FORWARD))
                .containsExactly(bytes(0xff), bytes(0xff, 0xff));
        assertThat(keys(KeyRange.atLeast(bytes(0x80)), Direction.REVERSE))
                .containsExactly(bytes(0xff, 0xff), bytes(0xff), bytes(0x80));
    }

    @Test
    void scanReadsTheViewOfItsCreation() {
        try (Scan scan = store.scan(ITEMS, KeyRange.all())) {
            store.commit(new WriteBatch().deleteRange(ITEMS, bytes(0x00), bytes(0xff, 0xff, 0xff))
                    .put(ITEMS, bytes(0x00, 0x01), bytes(1)), Durability.SYNC);
            int count = 0;
            while (scan.hasNext()) {
                scan.next();
                count++;
            }
            assertThat(count).isEqualTo(KEYS.size());
        }
        assertThat(keys(KeyRange.all(), Direction.FORWARD)).containsExactly(bytes(0x00, 0x01));
    }

    @Test
    void exhaustedFailedOrClosedScansFreeTheirIterators() {
        Scan drained = store.scan(ITEMS, KeyRange.all());
        while (drained.hasNext()) {
            drained.next();
        }
        assertThat(store.openScanCount()).as("exhausted, not yet closed").isZero();
        assertThat(drained.hasNext()).isFalse();
        assertThatThrownBy(drained::next).isInstanceOf(NoSuchElementException.class);

        Scan half = store.scan(ITEMS, KeyRange.all());
        half.next();
        assertThat(store.openScanCount()).isEqualTo(1);
        half.close();
        half.close();
        assertThat(store.openScanCount()).isZero();
        assertThatThrownBy(half::hasNext).isInstanceOf(StoreClosedException.class);
    }
}
