package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.FAMILIES;
import static io.ankusa.store.rocksdb.TestStores.ITEMS;
import static io.ankusa.store.rocksdb.TestStores.create;
import static io.ankusa.store.rocksdb.TestStores.key;
import static io.ankusa.store.rocksdb.TestStores.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.Durability;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.WriteBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead log is replayed with RocksDB's
 * {@code kTolerateCorruptedTailRecords}, so an incomplete final record (what a crash leaves of an
 * unsynced write) is dropped, but a damaged record with valid records after it is corruption: the
 * open fails with {@link StoreCorruptionException} instead of silently discarding every later
 * commit, as point-in-time recovery did.
 *
 * <p>Every commit here is one record in the one live log file, which is still there when the test
 * damages it: the store is small (nothing reaches the 16 MiB write buffer or the log bound, so no
 * memtable is flushed) and a close does not flush memtables when the log is on. The test checks
 * that before it damages anything.
 */
class WriteAheadLogDamageTest {

    private static final int SYNCED = 200;
    private static final int UNSYNCED = 20;
    private static final int VALUE_BYTES = 100;

    @TempDir
    Path dir;

    @Test
    void aDamagedByteInTheMiddleOfTheWriteAheadLogIsReportedAsCorruption() throws IOException {
        long[] ends = writeCommits(SYNCED, 0);
        Path log = onlyLog(ends[ends.length - 1]);
        int damaged = SYNCED / 2;
        long middleOfRecord = (ends[damaged - 1] + ends[damaged]) / 2;
        flipByte(log, middleOfRecord);

        assertThatThrownBy(() -> open(StoreOptions.existing(dir, FAMILIES)).close())
                .isInstanceOf(StoreCorruptionException.class)
                .hasMessageContaining("opening rocksdb store");
    }

    @Test
    void aTornFinalLogRecordRecoversEverySyncedCommit() throws IOException {
        long[] ends = writeCommits(SYNCED, UNSYNCED);
        int last = SYNCED + UNSYNCED - 1;
        Path log = onlyLog(ends[last]);
        long tornAt = (ends[last - 1] + ends[last]) / 2;
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
            channel.truncate(tornAt);
        }

        try (RocksStore store = open(StoreOptions.existing(dir, FAMILIES))) {
            for (int i = 0; i < last; i++) {
                assertThat(store.get(ITEMS, keyOf(i))).as("commit %d (synced: %s)", i, i < SYNCED)
                        .hasValueSatisfying(v -> assertThat(v).isEqualTo(valueOf(VALUE_BYTES)));
            }
            assertThat(store.get(ITEMS, keyOf(last))).as("the torn commit is dropped whole").isEmpty();
            store.commit(new WriteBatch().put(ITEMS, key("after"), valueOf(VALUE_BYTES)), Durability.SYNC);
        }
        // The open kept the torn log (it replays into memtables, flushing nothing): the next open
        // reads it again, still as a torn tail, followed by the newer log.
        try (RocksStore store = open(StoreOptions.existing(dir, FAMILIES))) {
            for (int i = 0; i < last; i++) {
                assertThat(store.get(ITEMS, keyOf(i))).as("commit %d after a second open", i).isPresent();
            }
            assertThat(store.get(ITEMS, keyOf(last))).isEmpty();
            assertThat(store.get(ITEMS, key("after"))).isPresent();
        }
    }

    /**
     * {@code synced} SYNC commits, then {@code unsynced} ASYNC ones, one put each, then a clean
     * close; returns the log file's size after each commit (where each record ends).
     */
    private long[] writeCommits(int synced, int unsynced) throws IOException {
        long[] ends = new long[synced + unsynced];
        try (RocksStore store = create(dir)) {
            for (int i = 0; i < ends.length; i++) {
                WriteBatch batch = new WriteBatch().put(ITEMS, keyOf(i), valueOf(VALUE_BYTES));
                store.commit(batch, i < synced ? Durability.SYNC : Durability.ASYNC);
                ends[i] = Files.size(liveLogs().get(0));
            }
        }
        return ends;
    }

    /** The one log file, checked to hold every record written (nothing was flushed away). */
    private Path onlyLog(long expectedSize) throws IOException {
        List<Path> logs = liveLogs();
        assertThat(logs).as("log files").hasSize(1);
        assertThat(Files.size(logs.get(0))).as("the log still holds every record").isEqualTo(expectedSize);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no table file yet")
                    .noneMatch(name -> name.endsWith(".sst"));
        }
        return logs.get(0);
    }

    private List<Path> liveLogs() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
        }
    }

    private static void flipByte(Path file, long position) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, position);
            one.flip();
            byte flipped = (byte) (one.get(0) ^ 0x5A);
            channel.write(ByteBuffer.wrap(new byte[] {flipped}), position);
        }
    }

    private static byte[] keyOf(int i) {
        return key(String.format("key%05d", i));
    }

    private static byte[] valueOf(int length) {
        byte[] value = new byte[length];
        Arrays.fill(value, (byte) 'v');
        return value;
    }
}
