package io.ankusa.store.lmdb;

import static io.ankusa.store.lmdb.TestStores.COUNTS;
import static io.ankusa.store.lmdb.TestStores.PLAIN;
import static io.ankusa.store.lmdb.TestStores.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.WriteBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.Txn;

/** Corruption is reported, never read as absent or zero, and a scan that meets it throws. */
class CorruptionTest {

    private static final int PAGE_BYTES = 4096;
    private static final int PAGE_FLAGS_OFFSET = 10; // MDB_page: pgno (8), pad (2), flags (2)

    @TempDir
    Path dir;

    @Test
    void aCounterValueThatIsNotEightBytesIsCorruptionEverywhere() {
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch().merge(COUNTS, utf8("a"), 1), Durability.SYNC);
        }
        writeAroundTheStore(COUNTS, utf8("b"), new byte[] {1, 2, 3});

        try (Store store = TestStores.open(dir)) {
            assertThat(store.counter(COUNTS, utf8("a"))).isEqualTo(1);
            assertThatThrownBy(() -> store.counter(COUNTS, utf8("b"))).isInstanceOf(StoreCorruptionException.class);
            assertThatThrownBy(() -> store.counters(COUNTS, List.of(utf8("a"), utf8("b"))))
                    .isInstanceOf(StoreCorruptionException.class);

            try (Scan scan = store.scan(COUNTS, KeyRange.all())) {
                assertThat(scan.next().key()).isEqualTo(utf8("a"));
                assertThatThrownBy(scan::hasNext).isInstanceOf(StoreCorruptionException.class);
                assertThatThrownBy(scan::hasNext).isInstanceOf(StoreCorruptionException.class);
            }

            WriteBatch mergeOntoIt = new WriteBatch().put(PLAIN, utf8("p"), utf8("1")).merge(COUNTS, utf8("b"), 1);
            assertThatThrownBy(() -> store.commit(mergeOntoIt, Durability.SYNC))
                    .isInstanceOf(StoreCorruptionException.class);
            assertThat(store.get(PLAIN, utf8("p"))).isEmpty();
        }
    }

    @Test
    void aDamagedPageIsReportedByGetAndScan() throws IOException {
        byte[] key = utf8("corrupt-me-0123456789");
        try (Store store = TestStores.open(dir)) {
            store.commit(new WriteBatch().put(PLAIN, key, utf8("value-0123456789")), Durability.SYNC);
        }
        assertThat(clearPageFlagsAround(dir.resolve("data.mdb"), key)).isPositive();

        try (Store store = TestStores.open(dir)) {
            assertThatThrownBy(() -> store.get(PLAIN, key)).isInstanceOf(StoreCorruptionException.class);
            assertThatThrownBy(() -> store.multiGet(PLAIN, List.of(key)))
                    .isInstanceOf(StoreCorruptionException.class);
            try (Scan scan = store.scan(PLAIN, KeyRange.all())) {
                assertThatThrownBy(scan::hasNext).isInstanceOf(StoreCorruptionException.class);
                assertThatThrownBy(scan::hasNext).isInstanceOf(StoreCorruptionException.class);
            }
        }
    }

    /** Puts a raw value with lmdbjava, bypassing the store's checks (the store must be closed). */
    private void writeAroundTheStore(String family, byte[] key, byte[] value) {
        try (Env<byte[]> env = Env.create(ByteArrayProxy.PROXY_BA).setMaxDbs(4).open(dir.toFile())) {
            Dbi<byte[]> dbi = env.openDbi(family);
            try (Txn<byte[]> txn = env.txnWrite()) {
                dbi.put(txn, key, value);
                txn.commit();
            }
        }
    }

    /** Zeroes the page-type flags of every page that holds {@code marker}; returns how many. */
    private static int clearPageFlagsAround(Path file, byte[] marker) throws IOException {
        byte[] content = Files.readAllBytes(file);
        assertThat(content.length % PAGE_BYTES).isZero();
        int pages = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (int page = 0; page < content.length; page += PAGE_BYTES) {
                if (contains(content, page, PAGE_BYTES, marker)) {
                    channel.write(ByteBuffer.wrap(new byte[2]), page + PAGE_FLAGS_OFFSET);
                    pages++;
                }
            }
            channel.force(true);
        }
        return pages;
    }

    private static boolean contains(byte[] content, int from, int length, byte[] marker) {
        outer:
        for (int i = from; i <= from + length - marker.length; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (content[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
