package io.ankusa.queue.deliveries;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.CounterKey;
import io.ankusa.keys.Ordinals;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the counter deltas of one batch into merge operands, and reads counters back.
 *
 * <p>Counters are blind merges, never read-modify-write: a merge needs no read and takes no lock,
 * so concurrent batches from every writer add into the same row without losing a count, and a
 * batch's deltas commit atomically with its row changes.
 */
public final class Counters {

    private Counters() {
    }

    /**
     * The merge ops for {@code deltas}: coalesced per (ord, field), the same sums added to the
     * aggregate (ordinal 0), zero sums left out, in key order.
     */
    public static List<WriteBatch.Merge> ops(Collection<CounterDelta> deltas) {
        Map<Long, long[]> sums = new TreeMap<>();
        long[] aggregate = new long[CounterKey.LAST_FIELD + 1];
        for (CounterDelta d : deltas) {
            sums.computeIfAbsent(d.ord(), o -> new long[CounterKey.LAST_FIELD + 1])[d.field().number()] += d.delta();
            aggregate[d.field().number()] += d.delta();
        }
        List<WriteBatch.Merge> ops = new ArrayList<>();
        addOps(ops, Ordinals.AGGREGATE, aggregate);
        sums.forEach((ord, fields) -> addOps(ops, ord, fields));
        return ops;
    }

    /** Appends {@link #ops(Collection)} of {@code deltas} to {@code batch}. */
    public static void appendTo(WriteBatch batch, Collection<CounterDelta> deltas) {
        for (WriteBatch.Merge m : ops(deltas)) {
            batch.merge(m.family(), m.key(), m.delta());
        }
    }

    /** The {@code history_bytes} counter of {@code ord} (0: the node's), one counter read. */
    public static long historyBytes(Store store, long ord) {
        byte[] key = new CounterKey(ord, CounterField.HISTORY_BYTES.number()).encode();
        return store.counter(ColumnFamilies.COUNTERS, key);
    }

    private static void addOps(List<WriteBatch.Merge> ops, long ord, long[] fields) {
        for (int f = CounterKey.FIRST_FIELD; f <= CounterKey.LAST_FIELD; f++) {
            if (fields[f] != 0) {
                ops.add(new WriteBatch.Merge(ColumnFamilies.COUNTERS, new CounterKey(ord, f).encode(), fields[f]));
            }
        }
    }

    /**
     * The eight counters of each of {@code ords}, in one multi-read of eight rows per ordinal.
     *
     * @param store the store
     * @param ords  tenant ordinals (0 for the aggregate)
     * @return the counters of each ordinal, in the order given
     */
    public static List<CounterValues> read(Store store, List<Long> ords) {
        int fields = CounterKey.LAST_FIELD - CounterKey.FIRST_FIELD + 1;
        List<byte[]> keys = new ArrayList<>(fields * ords.size());
        for (long ord : ords) {
            for (int f = CounterKey.FIRST_FIELD; f <= CounterKey.LAST_FIELD; f++) {
                keys.add(new CounterKey(ord, f).encode());
            }
        }
        if (keys.isEmpty()) {
            return List.of();
        }
        long[] v = store.counters(ColumnFamilies.COUNTERS, keys);
        List<CounterValues> out = new ArrayList<>(ords.size());
        for (int i = 0; i < ords.size(); i++) {
            int o = i * fields;
            out.add(new CounterValues(v[o], v[o + 1], v[o + 2], v[o + 3], v[o + 4], v[o + 5], v[o + 6], v[o + 7]));
        }
        return out;
    }

    /** The eight counters of {@code ord} (0 for the aggregate), in one multi-read. */
    public static CounterValues read(Store store, long ord) {
        List<byte[]> keys = new ArrayList<>(CounterKey.LAST_FIELD);
        for (int f = CounterKey.FIRST_FIELD; f <= CounterKey.LAST_FIELD; f++) {
            keys.add(new CounterKey(ord, f).encode());
        }
        long[] v = store.counters(ColumnFamilies.COUNTERS, keys);
        return new CounterValues(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    }
}
