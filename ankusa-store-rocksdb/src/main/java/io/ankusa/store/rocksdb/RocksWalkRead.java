package io.ankusa.store.rocksdb;

import io.ankusa.store.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Point reads of many keys of one family by walking one iterator over them in key order: a key a
 * step or two after the previous one is reached with {@code next}, any other with a {@code seek},
 * and a key the iterator passes over without meeting it is absent. Keys that lie together — the
 * hooks and delivery rows of one claim, the inflight rows of one settle, mostly consecutive
 * sequence numbers — cost a {@code next} each instead of a lookup each: through RocksJava a
 * {@code MultiGet} of 128 such hooks took about 300 µs, this walk about 50–100 µs (the
 * byte-buffer {@code MultiGet} builds a Java {@code Status} object per key through JNI). Keys
 * spread apart need a seek each, which costs what a lookup does; after {@link #maxSeeks} seeks the
 * keys not yet read go through {@link RocksMultiGet} instead.
 *
 * <p>The caller passes read options with a snapshot, so the walk and the {@code MultiGet} after it
 * read one view, and with an upper bound just past the largest key, so a seek never walks past
 * it. RocksDB iterators do not throw: an iterator that turns invalid is asked for its status, and
 * a corrupt block throws rather than reading as absent keys.
 */
final class RocksWalkRead {

    /** Steps taken with {@code next} towards a key before a seek is used instead. */
    static final int STEPS = 2;

    /** Where the iterator is once past the last key: keys are never empty. */
    private static final byte[] END = new byte[0];

    private RocksWalkRead() {
    }

    /** Seeks a walk of {@code keys} may make before it hands the rest to {@code MultiGet}. */
    static int maxSeeks(int keys) {
        return Math.max(2, keys / 8);
    }

    /**
     * The values of {@code keys} ({@code null} for an absent key), in order.
     *
     * @param readOptions with the snapshot of the read and an iterate upper bound past the largest key
     * @throws RocksDBException when the iterator or the {@code MultiGet} reports a failure (corruption)
     */
    static List<byte[]> read(RocksDB db, ReadOptions readOptions, ColumnFamilyHandle handle, List<byte[]> keys,
            int slotBytes) throws RocksDBException {
        int n = keys.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Bytes.compare(keys.get(a), keys.get(b)));
        byte[][] values = new byte[n][];
        int seeks = 0;
        int limit = maxSeeks(n);
        int next = 0;
        try (RocksIterator it = db.newIterator(handle, readOptions)) {
            byte[] at = END;
            boolean positioned = false;
            for (; next < n; next++) {
                int i = order[next];
                byte[] target = keys.get(i);
                if (next > 0 && Arrays.equals(target, keys.get(order[next - 1]))) {
                    byte[] same = values[order[next - 1]];
                    values[i] = same == null ? null : same.clone();
                    continue;
                }
                for (int step = 0; positioned && at != END && Bytes.compare(at, target) < 0 && step < STEPS; step++) {
                    it.next();
                    at = keyAt(it);
                }
                if (!positioned || (at != END && Bytes.compare(at, target) < 0)) {
                    if (seeks == limit) {
                        break;
                    }
                    it.seek(target);
                    seeks++;
                    positioned = true;
                    at = keyAt(it);
                }
                if (at == END) {
                    // Nothing at or after this key: it and every key after it are absent.
                    next = n;
                    break;
                }
                if (Arrays.equals(at, target)) {
                    values[i] = it.value();
                }
            }
        }
        if (next < n) {
            List<byte[]> rest = new ArrayList<>(n - next);
            for (int k = next; k < n; k++) {
                rest.add(keys.get(order[k]));
            }
            List<byte[]> read = RocksMultiGet.read(db, readOptions, handle, rest, slotBytes);
            for (int k = next; k < n; k++) {
                values[order[k]] = read.get(k - next);
            }
        }
        return Arrays.asList(values);
    }

    /**
     * The iterator's key, or the empty array (never a stored key) when it is past the last key; a failed iterator
     * throws.
     */
    private static byte[] keyAt(RocksIterator it) throws RocksDBException {
        if (it.isValid()) {
            return it.key();
        }
        it.status();
        return END;
    }
}
