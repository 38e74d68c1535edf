package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static io.ankusa.store.lmdb.TestStores.bytes;
import static io.ankusa.store.lmdb.TestStores.drain;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys sort as unsigned bytes everywhere: LMDB's order, range ends, seeks (signed, 0x80 would sort first). */
class UnsignedOrderTest {

    @TempDir
    Path dir;

    private Store store;

    @BeforeEach
    void fill() {
        store = TestStores.open(dir);
        WriteBatch batch = new WriteBatch();
        for (byte[] key : List.of(bytes(0xFF), bytes(0x80), bytes(0x01), bytes(0x7F), bytes(0x80, 0x00),
                bytes(0xFF, 0xFF))) {
            batch.put(PLAIN, key, key);
        }
        store.commit(batch, Durability.ASYNC);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aFullScanIsInUnsignedOrder() {
        assertThat(keys(KeyRange.all(), Direction.FORWARD)).containsExactly(
                bytes(0x01), bytes(0x7F), bytes(0x80), bytes(0x80, 0x00), bytes(0xFF), bytes(0xFF, 0xFF));
        assertThat(keys(KeyRange.all(), Direction.REVERSE)).containsExactly(
                bytes(0xFF, 0xFF), bytes(0xFF), bytes(0x80, 0x00), bytes(0x80), bytes(0x7F), bytes(0x01));
    }

    @Test
    void aRangeFromALowToAHighByteHoldsTheHighHalf() {
        assertThat(keys(KeyRange.of(bytes(0x01), bytes(0xFF)), Direction.FORWARD))
                .containsExactly(bytes(0x01), bytes(0x7F), bytes(0x80), bytes(0x80, 0x00));
        assertThat(keys(KeyRange.of(bytes(0x01), bytes(0xFF)), Direction.REVERSE))
                .containsExactly(bytes(0x80, 0x00), bytes(0x80), bytes(0x7F), bytes(0x01));
    }

    @Test
    void rangesStartingAboveTheSignBitWork() {
        assertThat(keys(KeyRange.of(bytes(0x80), bytes(0xFF)), Direction.FORWARD))
                .containsExactly(bytes(0x80), bytes(0x80, 0x00));
        assertThat(keys(KeyRange.prefix(bytes(0xFF)), Direction.REVERSE))
                .containsExactly(bytes(0xFF, 0xFF), bytes(0xFF));
        assertThat(keys(KeyRange.atLeast(bytes(0x80)), Direction.FORWARD))
                .containsExactly(bytes(0x80), bytes(0x80, 0x00), bytes(0xFF), bytes(0xFF, 0xFF));
    }

    @Test
    void deleteRangeUsesTheSameOrder() {
        store.commit(new WriteBatch().deleteRange(PLAIN, bytes(0x7F), bytes(0xFF)), Durability.ASYNC);
        assertThat(keys(KeyRange.all(), Direction.FORWARD))
                .containsExactly(bytes(0x01), bytes(0xFF), bytes(0xFF, 0xFF));
    }

    private List<byte[]> keys(KeyRange range, Direction direction) {
        return drain(store.scan(PLAIN, range, direction)).stream().map(KeyValue::key).toList();
    }
}
