package io.ankusa.store.lmdb;

import io.ankusa.store.Bytes;
import io.ankusa.store.WriteBatch;
import io.ankusa.store.spi.CounterCodec;
import java.util.Map;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.GetOp;
import org.lmdbjava.Txn;

/**
 * Applies the ops of a batch, in order, inside one LMDB write transaction. The batch was checked
 * by {@link io.ankusa.store.spi.BatchValidator} before: every family exists and fits its op.
 *
 * <p>A merge reads the counter, adds the delta and puts the sum, all in the transaction; LMDB has
 * one writer, so no other commit can interleave and the sum is exact. It reads its own batch's
 * earlier writes, so several merges to one row in one batch add up too.
 */
final class BatchApplier {

    private final Map<String, Family> families;

    BatchApplier(Map<String, Family> families) {
        this.families = families;
    }

    /** Applies {@code batch}; the caller commits or aborts {@code txn}. */
    void apply(Txn<byte[]> txn, WriteBatch batch) {
        for (WriteBatch.Op op : batch.ops()) {
            Dbi<byte[]> dbi = families.get(op.family()).dbi();
            if (op instanceof WriteBatch.Put put) {
                LmdbStore.requireKey(put.key());
                dbi.put(txn, put.key(), put.value());
            } else if (op instanceof WriteBatch.Delete delete) {
                LmdbStore.requireKey(delete.key());
                dbi.delete(txn, delete.key());
            } else if (op instanceof WriteBatch.DeleteRange range) {
                deleteRange(txn, dbi, range.from(), range.to());
            } else if (op instanceof WriteBatch.Merge merge) {
                merge(txn, dbi, merge);
            } else {
                throw new IllegalStateException("unhandled op " + op);
            }
        }
    }

    private static void merge(Txn<byte[]> txn, Dbi<byte[]> dbi, WriteBatch.Merge merge) {
        byte[] key = merge.key();
        LmdbStore.requireKey(key);
        byte[] current = dbi.get(txn, key);
        long sum = (current == null ? 0 : CounterCodec.decode(current)) + merge.delta();
        dbi.put(txn, key, CounterCodec.encode(sum));
    }

    /**
     * Deletes {@code [from, to)} with a cursor. After each delete the cursor seeks {@code from}
     * again rather than stepping: every key before the next survivor is gone, so the seek lands on
     * it, and the loop does not depend on where LMDB leaves a cursor after a delete.
     */
    private static void deleteRange(Txn<byte[]> txn, Dbi<byte[]> dbi, byte[] from, byte[] to) {
        if (Bytes.compare(from, to) >= 0) {
            return;
        }
        try (Cursor<byte[]> cursor = dbi.openCursor(txn)) {
            while (seek(cursor, from) && Bytes.compare(cursor.key(), to) < 0) {
                cursor.delete();
            }
        }
    }

    private static boolean seek(Cursor<byte[]> cursor, byte[] from) {
        return from.length == 0 ? cursor.first() : cursor.get(from, GetOp.MDB_SET_RANGE);
    }
}
