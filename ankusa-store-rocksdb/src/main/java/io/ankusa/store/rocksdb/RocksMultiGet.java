package io.ankusa.store.rocksdb;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ByteBufferGetStatus;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * Point reads of many keys of one family in one RocksDB {@code MultiGet}: the keys are looked up
 * together (each table's index and filter partitions visited once for the keys in them) and every
 * key is read at one sequence number, the consistent view RocksDB takes for the whole call.
 *
 * <p>Through {@code multiGetByteBuffers}, because it reports each key's own status: a corrupt entry
 * throws ({@link Status.Code#Corruption}, which {@link RocksFailures} turns into
 * {@link io.ankusa.store.StoreCorruptionException}), never reads as absent. RocksJava's
 * {@code multiGetAsList} reports every status other than OK as {@code null}, the same as an absent
 * key ({@code CorruptionTest} holds this class to the difference). Keys and values go through
 * one direct buffer, kept by the calling thread between calls, each value into a slot of a fixed
 * size; a value longer than its slot is read again with a single {@code get} under the same read
 * options (so under the same snapshot when the caller set one).
 */
final class RocksMultiGet {

    /** The largest arena a thread keeps between calls; a larger call allocates its own. */
    static final int MAX_KEPT_ARENA_BYTES = 1 << 20;
    /**
     * Each thread's arena, kept between calls: a direct buffer is zeroed when allocated and, past
     * malloc's mmap threshold, freshly mapped, so allocating one per call (512 KiB for a step of the
     * 2 → 3 migration resolving 500 tenants) cost more page faults and zeroing than the reads.
     */
    private static final ThreadLocal<ByteBuffer[]> ARENAS = ThreadLocal.withInitial(() -> new ByteBuffer[1]);

    private RocksMultiGet() {
    }

    /** A direct buffer of at least {@code bytes} for one call on this thread (its contents are overwritten). */
    private static ByteBuffer arena(int bytes) {
        if (bytes > MAX_KEPT_ARENA_BYTES) {
            return ByteBuffer.allocateDirect(bytes);
        }
        ByteBuffer[] kept = ARENAS.get();
        if (kept[0] == null || kept[0].capacity() < bytes) {
            kept[0] = ByteBuffer.allocateDirect(Math.max(Integer.highestOneBit(bytes - 1) << 1, 4096));
        }
        return kept[0];
    }

    /**
     * The values of {@code keys} ({@code null} for an absent key), in order.
     *
     * @param slotBytes the bytes set aside for each value; longer values are read again one by one
     * @throws RocksDBException with the first key's status that is neither OK nor not-found
     */
    static List<byte[]> read(RocksDB db, ReadOptions readOptions, ColumnFamilyHandle handle, List<byte[]> keys,
            int slotBytes) throws RocksDBException {
        int n = keys.size();
        if (n == 0) {
            return List.of();
        }
        long keyBytes = 0;
        for (byte[] key : keys) {
            keyBytes += key.length;
        }
        ByteBuffer arena = arena(Math.toIntExact(keyBytes + (long) n * slotBytes));
        List<ByteBuffer> keyBuffers = new ArrayList<>(n);
        List<ByteBuffer> valueBuffers = new ArrayList<>(n);
        int at = 0;
        for (byte[] key : keys) {
            keyBuffers.add(arena.slice(at, key.length).put(key).flip());
            at += key.length;
        }
        for (int i = 0; i < n; i++) {
            valueBuffers.add(arena.slice(at, slotBytes));
            at += slotBytes;
        }
        // One handle for every key, not one per key: RocksJava then calls the single-family batched
        // MultiGet, not the multi-family one, which groups the keys by family first.
        List<ByteBufferGetStatus> results = db.multiGetByteBuffers(readOptions, List.of(handle), keyBuffers,
                valueBuffers);
        List<byte[]> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ByteBufferGetStatus result = results.get(i);
            Status.Code code = result.status.getCode();
            if (code == Status.Code.NotFound) {
                values.add(null);
            } else if (code != Status.Code.Ok) {
                throw new RocksDBException("multiGet of key " + i + " of " + n + ": " + result.status.getCodeString(),
                        result.status);
            } else if (result.requiredSize > slotBytes) {
                values.add(db.get(handle, readOptions, keys.get(i)));
            } else {
                byte[] value = new byte[result.value.remaining()];
                result.value.get(value);
                values.add(value);
            }
        }
        return values;
    }
}
