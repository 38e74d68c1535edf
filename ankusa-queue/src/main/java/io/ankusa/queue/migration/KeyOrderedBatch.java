package io.ankusa.queue.migration;

import io.ankusa.store.WriteBatch;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A migration step's batch with its ops in key order within each column family, so that RocksDB
 * inserts them into its memtables in order. A step's rows come in old-key order (due time), and
 * their new keys are tenant first, interleaved with markers keyed by time: applied as built, every
 * insert landed far from the one before, and RocksDB's skip list searched all its levels again
 * each time ({@code InlineSkipList::RecomputeSpliceLevels} was about half of the commit thread's
 * CPU at 10⁶ rows); in order, each insert starts from where the previous one ended.
 *
 * <p>A comparison sort of a step's 130 000 ops cost as much as the skip list's searches it saved,
 * so the ops are first ordered by family and their keys' first five bytes with one primitive sort
 * (a key's prefix byte and, for the tenant-first keys, the tenant's ordinal), and a stable merge
 * sort on the whole key finishes: it costs little on what is then nearly sorted (a step's old rows
 * come in key order, so within one ordinal the new keys already are), and it alone decides the
 * result.
 *
 * <p>Why the batch means the same: a batch is applied whole, and ops on different keys of a batch
 * commute; both sorts keep ops on the same key in their order. A range delete covers keys other
 * ops may touch, so a batch holding one is left as it is (the migration's finish step).
 */
final class KeyOrderedBatch {

    /** Bits of the presort's long for an op's position (ops of a step are far fewer than 2²¹). */
    private static final int INDEX_BITS = 21;
    /** Key bytes in the presort's long. */
    private static final int PREFIX_BYTES = 5;
    /** Bits left for the family's rank: 64 - 21 - 40. */
    private static final int MAX_FAMILIES = 1 << (Long.SIZE - INDEX_BITS - PREFIX_BYTES * Byte.SIZE);

    private static final Comparator<WriteBatch.Op> ORDER = KeyOrderedBatch::compare;

    private KeyOrderedBatch() {
    }

    /** {@code batch}'s ops stable-sorted by (family, key); {@code batch} itself when it holds a range delete. */
    static WriteBatch of(WriteBatch batch) {
        List<WriteBatch.Op> ops = batch.ops();
        TreeSet<String> ranks = new TreeSet<>();
        for (WriteBatch.Op op : ops) {
            if (op instanceof WriteBatch.DeleteRange) {
                return batch;
            }
            ranks.add(op.family());
        }
        Map<String, Integer> rankOf = new HashMap<>();
        for (String family : ranks) {
            rankOf.put(family, rankOf.size());
        }
        WriteBatch.Op[] sorted = presorted(ops, rankOf);
        Arrays.sort(sorted, ORDER); // a merge sort: stable, and linear on runs already in order
        WriteBatch out = new WriteBatch();
        for (WriteBatch.Op op : sorted) {
            if (op instanceof WriteBatch.Put put) {
                out.put(put.family(), put.key(), put.value());
            } else if (op instanceof WriteBatch.Delete delete) {
                out.delete(delete.family(), delete.key());
            } else if (op instanceof WriteBatch.Merge merge) {
                out.merge(merge.family(), merge.key(), merge.delta());
            }
        }
        return out;
    }

    /**
     * The ops ordered by (family, first {@value #PREFIX_BYTES} key bytes, position): one sort of
     * longs. In the original order when they are too many or of too many families for the long.
     */
    private static WriteBatch.Op[] presorted(List<WriteBatch.Op> ops, Map<String, Integer> ranks) {
        WriteBatch.Op[] in = ops.toArray(WriteBatch.Op[]::new);
        if (in.length >= 1 << INDEX_BITS || ranks.size() > MAX_FAMILIES) {
            return in;
        }
        long[] order = new long[in.length];
        for (int i = 0; i < in.length; i++) {
            byte[] key = key(in[i]);
            long prefix = 0;
            for (int b = 0; b < PREFIX_BYTES; b++) {
                prefix = prefix << Byte.SIZE | (b < key.length ? key[b] & 0xFF : 0);
            }
            long packed = ((long) ranks.get(in[i].family()) << (PREFIX_BYTES * Byte.SIZE) | prefix) << INDEX_BITS | i;
            order[i] = packed ^ Long.MIN_VALUE; // unsigned order as signed
        }
        Arrays.sort(order);
        WriteBatch.Op[] out = new WriteBatch.Op[in.length];
        for (int i = 0; i < order.length; i++) {
            out[i] = in[(int) (order[i] & ((1 << INDEX_BITS) - 1))];
        }
        return out;
    }

    private static int compare(WriteBatch.Op a, WriteBatch.Op b) {
        if (!a.family().equals(b.family())) {
            return a.family().compareTo(b.family());
        }
        return Arrays.compareUnsigned(key(a), key(b));
    }

    private static byte[] key(WriteBatch.Op op) {
        if (op instanceof WriteBatch.Put put) {
            return put.key();
        } else if (op instanceof WriteBatch.Delete delete) {
            return delete.key();
        } else if (op instanceof WriteBatch.Merge merge) {
            return merge.key();
        }
        throw new IllegalArgumentException("no single key: " + op);
    }
}
