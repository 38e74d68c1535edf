package io.ankusa.queue.migration;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.KeyFormatException;
import io.ankusa.queue.deliveries.DeliveryRow;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Every delivery row's size, read with one forward scan of the {@code deliveries} family in key
 * order: what the dead phase of the 2 → 3 migration needs (a format-2 dead value has no size), so
 * that its steps look sizes up in memory instead of reading one delivery row at random per dead
 * row. The same reasoning as {@link HookDirectory}: the migration never writes the family and
 * nothing else writes while it runs; the scan runs to the hi sentinel and refuses a scan that ends
 * without it. 18 bytes per row; more than {@code maxRows} rows: {@link #scan} answers empty.
 */
final class DeliverySizes {

    /** A size meaning "the row did not decode". */
    private static final long UNDECODABLE = -1;

    private final long[] seqs;
    private final char[] sinks;
    private final long[] sizes;

    private DeliverySizes(long[] seqs, char[] sinks, long[] sizes) {
        this.seqs = seqs;
        this.sinks = sinks;
        this.sizes = sizes;
    }

    /** Scans the deliveries family; empty when it holds more than {@code maxRows} rows. */
    static Optional<DeliverySizes> scan(Store store, int maxRows) {
        long[] seqs = new long[1024];
        char[] sinks = new char[1024];
        long[] sizes = new long[1024];
        int n = 0;
        byte[] hi = DeliveryKey.FAMILY.hi();
        try (Scan scan = store.scan(ColumnFamilies.DELIVERIES, KeyRange.of(DeliveryKey.FAMILY.lo(),
                Arrays.copyOf(hi, hi.length + 1)))) {
            while (true) {
                if (!scan.hasNext()) {
                    throw new StoreCorruptionException("the deliveries family ended without its hi sentinel (a scan "
                            + "ended early, or the sentinel was lost)");
                }
                KeyValue kv = scan.next();
                if (Arrays.equals(kv.key(), hi)) {
                    break;
                }
                DeliveryKey key;
                try {
                    key = DeliveryKey.decode(kv.key());
                } catch (KeyFormatException e) {
                    continue; // the lo sentinel or a stray key: no DeliveryKey ever reads it
                }
                if (n == maxRows) {
                    return Optional.empty();
                }
                if (n == seqs.length) {
                    int grown = (int) Math.min((long) maxRows, 2L * n);
                    seqs = Arrays.copyOf(seqs, grown);
                    sinks = Arrays.copyOf(sinks, grown);
                    sizes = Arrays.copyOf(sizes, grown);
                }
                long size;
                try {
                    size = DeliveryRow.decode(kv.value()).size();
                } catch (StoreCorruptionException e) {
                    size = UNDECODABLE;
                }
                seqs[n] = key.seq();
                sinks[n] = (char) key.sink();
                sizes[n] = size;
                n++;
            }
        }
        return Optional.of(new DeliverySizes(Arrays.copyOf(seqs, n), Arrays.copyOf(sinks, n), Arrays.copyOf(sizes, n)));
    }

    /** The size of the delivery row {@code (seq, sink)}; empty when it is gone or does not decode. */
    OptionalLong sizeOf(long seq, int sink) {
        int lo = 0;
        int hi = seqs.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = seqs[mid] != seq ? Long.compare(seqs[mid], seq) : Integer.compare(sinks[mid], sink);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return sizes[mid] == UNDECODABLE ? OptionalLong.empty() : OptionalLong.of(sizes[mid]);
            }
        }
        return OptionalLong.empty();
    }

    /** Rows scanned. */
    int size() {
        return seqs.length;
    }
}
