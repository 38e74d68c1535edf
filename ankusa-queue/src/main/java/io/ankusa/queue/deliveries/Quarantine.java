package io.ankusa.queue.deliveries;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.Ordinals;
import io.ankusa.keys.QuarantineKey;
import io.ankusa.queue.ledger.DueStamps;
import io.ankusa.queue.ledger.QuarantinedRow;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The quarantine's reads and an operator's two ways out of it. A claim moves a due row whose hook
 * or delivery row does not decode into the {@code ?Q} family ({@link Deliveries#quarantineOps});
 * this class lists those rows, releases them back to due (after the operator restored the hook)
 * or purges them (an explicit decision, audited by the caller). Release and purge run in chunks of
 * {@value #CHUNK}, each one synced batch under the tenant's stripe with its counter deltas, so the
 * counters equal a fold after every chunk, and a run cut short is finished by calling it again.
 */
public final class Quarantine {

    /** Rows per release or purge chunk. */
    public static final int CHUNK = 500;

    private final Store store;
    private final TenantStripes stripes;
    private final DueStamps stamps;

    /**
     * The quarantine of {@code store}; released rows are due at a stamp of {@code stamps}, held until their batch is
     * committed.
     */
    public Quarantine(Store store, TenantStripes stripes, DueStamps stamps) {
        this.store = Objects.requireNonNull(store, "store");
        this.stripes = Objects.requireNonNull(stripes, "stripes");
        this.stamps = Objects.requireNonNull(stamps, "stamps");
    }

    /**
     * Up to {@code limit} quarantined rows of the node after {@code after} (from the first when empty), in (ord, seq,
     * sink) order.
     */
    public List<QuarantinedRow> page(Optional<QuarantinedRow> after, int limit) {
        requireLimit(limit);
        KeySpan family = QuarantineKey.FAMILY.between();
        return read(after.map(q -> Ranges.after(new QuarantineKey(q.ord(), q.seq(), q.sink()).encode(), family))
                .orElse(Ranges.of(family)), limit);
    }

    /** Up to {@code limit} of tenant {@code ord}'s quarantined rows, in (seq, sink) order. */
    public List<QuarantinedRow> tenantRows(long ord, int limit) {
        requireLimit(limit);
        return read(Ranges.of(QuarantineKey.tenantRange(Ordinals.requireTenant(ord))), limit);
    }

    private List<QuarantinedRow> read(io.ankusa.store.KeyRange range, int limit) {
        List<QuarantinedRow> out = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, range)) {
            while (out.size() < limit && scan.hasNext()) {
                KeyValue kv = scan.next();
                out.add(Deliveries.quarantinedRow(kv.key(), kv.value()));
            }
        }
        return out;
    }

    /**
     * Releases up to {@code limit} of tenant {@code ord}'s quarantined rows back to due now as
     * first attempts, in one synced batch; returns them. A delivery row that still does not decode
     * is replaced by a fresh one (attempts from 0). A hook that still does not decode is simply
     * quarantined again by the next claim.
     */
    public List<QuarantinedRow> releaseChunk(long ord, int limit) {
        return stripes.locked(Ordinals.requireTenant(ord), () -> {
            List<QuarantinedRow> rows = tenantRows(ord, limit);
            if (rows.isEmpty()) {
                return rows;
            }
            List<Optional<byte[]>> deliveryRows = store.multiGet(ColumnFamilies.DELIVERIES,
                    rows.stream().map(q -> new DeliveryKey(q.seq(), q.sink()).encode()).toList());
            try (DueStamps.Held held = stamps.hold()) {
                DeliveryBatch batch = new DeliveryBatch();
                for (int i = 0; i < rows.size(); i++) {
                    QuarantinedRow q = rows.get(i);
                    if (deliveryRows.get(i).isEmpty()) {
                        throw new StoreCorruptionException("quarantined row " + q + " has no delivery row");
                    }
                    Deliveries.releaseQuarantinedOps(batch, q, releasedRow(deliveryRows.get(i).get(), q.size()),
                            held.millis());
                }
                batch.commit(store, Durability.SYNC);
            }
            return rows;
        });
    }

    private static DeliveryRow releasedRow(byte[] stored, long size) {
        try {
            return DeliveryRow.decode(stored).revived();
        } catch (StoreCorruptionException e) {
            return DeliveryRow.fresh(size);
        }
    }

    /**
     * Purges up to {@code limit} of tenant {@code ord}'s quarantined rows (their delivery rows go,
     * reclaim then removes a hook nothing else holds) in one synced batch; returns them.
     */
    public List<QuarantinedRow> purgeChunk(long ord, int limit) {
        return stripes.locked(Ordinals.requireTenant(ord), () -> {
            List<QuarantinedRow> rows = tenantRows(ord, limit);
            if (rows.isEmpty()) {
                return rows;
            }
            DeliveryBatch batch = new DeliveryBatch();
            rows.forEach(q -> Deliveries.purgeQuarantinedOps(batch, q));
            batch.commit(store, Durability.SYNC);
            return rows;
        });
    }

    private static void requireLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1: " + limit);
        }
    }
}
