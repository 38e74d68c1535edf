package io.ankusa.bench;

import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;

/**
 * The format-2 queue gauge, for the baseline column: what every gauge tick did before counters —
 * fold the due, inflight, dead and archive families (count the rows, sum the sizes of due and
 * inflight rows). Run here over the same families of the format-3 store, so both gauges read the
 * same data; its cost grows with the backlog, about a microsecond per key.
 */
final class FoldingGauge {

    private FoldingGauge() {
    }

    /** One tick: pending + inflight + dead + archive rows and bytes, summed into one number. */
    static long tick(Store store) {
        long total = 0;
        total += fold(store, DueKey.FAMILY.between(), true);
        total += fold(store, InflightKey.FAMILY.between(), true);
        total += fold(store, DeadKey.FAMILY.between(), false);
        total += fold(store, ArchiveKey.FAMILY.between(), false);
        return total;
    }

    private static long fold(Store store, KeySpan span, boolean sized) {
        long rows = 0;
        long bytes = 0;
        try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.of(span.from(), span.to()))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                rows++;
                if (sized) {
                    byte[] v = kv.value();
                    bytes += ((v[0] & 0xFFL) << 24) | ((v[1] & 0xFF) << 16) | ((v[2] & 0xFF) << 8) | (v[3] & 0xFF);
                }
            }
        }
        return rows + bytes;
    }
}
