package io.ankusa.queue.deliveries;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadByTenantKey;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.Ordinals;
import io.ankusa.queue.ledger.DeadRow;
import io.ankusa.store.Direction;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.Iterator;
import java.util.Objects;

/**
 * Newest-first reads of one tenant's dead rows: a reverse scan of its
 * {@link io.ankusa.keys.DeadByTenantKey ?X} range, which is
 * ordered like the global {@link io.ankusa.keys.DeadKey ?x} family (at, seq, sink), so a position in one is a
 * position in
 * the other. The {@link io.ankusa.keys.DeadByTenantKey ?X} keys are built here, as every tenant index key is.
 */
public final class DeadIndex {

    private final Store store;

    /** Reads of {@code store}. */
    public DeadIndex(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Tenant {@code ord}'s dead rows, newest first. Close the scan. */
    public DeadRowScan newestFirst(long ord) {
        return scan(ord, DeadByTenantKey.tenantRange(Ordinals.requireTenant(ord)).to());
    }

    /** Tenant {@code ord}'s dead rows strictly older than {@code before} in (at, seq, sink) order, newest first. */
    public DeadRowScan newestFirst(long ord, DeadKey before) {
        return scan(ord,
                new DeadByTenantKey(Ordinals.requireTenant(ord), before.at(), before.seq(), before.sink()).encode());
    }

    private DeadRowScan scan(long ord, byte[] end) {
        KeySpan range = DeadByTenantKey.tenantRange(ord);
        return new DeadRowScan(store.scan(ColumnFamilies.INDEX, KeyRange.of(range.from(), end), Direction.REVERSE));
    }

    /** A tenant's dead rows as they are read; close it. */
    public static final class DeadRowScan implements Iterator<DeadRow>, AutoCloseable {

        private final Scan scan;

        private DeadRowScan(Scan scan) {
            this.scan = scan;
        }

        @Override
        public boolean hasNext() {
            return scan.hasNext();
        }

        @Override
        public DeadRow next() {
            DeadByTenantKey k = DeadByTenantKey.decode(scan.next().key());
            return new DeadRow(k.ord(), k.at(), k.seq(), k.sink());
        }

        @Override
        public void close() {
            scan.close();
        }
    }
}
