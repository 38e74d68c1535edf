package io.ankusa.queue.deliveries;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadByTenantKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.Ordinals;
import io.ankusa.queue.ledger.DeadRow;
import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Purges one tenant's due or dead rows in chunks, one synced batch per chunk, under the tenant's
 * stripe. Idempotent: a partial run resumes by being called again. Never touches inflight rows
 * (they belong to the dispatcher until settled).
 */
public final class TenantPurge {

    private static final Logger LOG = LoggerFactory.getLogger(TenantPurge.class);

    /** Rows per chunk. */
    public static final int CHUNK = 500;

    private final Store store;
    private final TenantStripes stripes;

    /** A purger over {@code store}. */
    public TenantPurge(Store store, TenantStripes stripes) {
        this.store = Objects.requireNonNull(store, "store");
        this.stripes = Objects.requireNonNull(stripes, "stripes");
    }

    /** Purges every due row of {@code ord}, chunk by chunk; returns how many. */
    public long purgeDue(long ord) {
        long total = 0;
        int n;
        while ((n = purgeDueChunk(ord, CHUNK)) > 0) {
            total += n;
        }
        return total;
    }

    /** Purges every dead row of {@code ord}, chunk by chunk; returns how many. */
    public long purgeDead(long ord) {
        long total = 0;
        int n;
        while ((n = purgeDeadChunk(ord, CHUNK)) > 0) {
            total += n;
        }
        return total;
    }

    /** Purges up to {@code limit} of {@code ord}'s earliest due rows in one synced batch; returns how many. */
    public int purgeDueChunk(long ord, int limit) {
        return purgeDueRows(ord, limit).rows();
    }

    /**
     * Purges up to {@code limit} of {@code ord}'s earliest due rows in one synced batch; returns
     * what it removed, as stored (kind and size from each row's value).
     */
    public PurgedRows purgeDueRows(long ord, int limit) {
        Ordinals.requireTenant(ord);
        return stripes.locked(ord, () -> {
            try {
                return purgeDueLocked(ord, limit);
            } finally {
                stripes.removedDue();
            }
        });
    }

    /** Under {@code ord}'s stripe: reads and removes its earliest due rows. */
    private PurgedRows purgeDueLocked(long ord, int limit) {
        List<DueRow> rows = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(DueKey.tenantRange(ord)))) {
            while (rows.size() < limit && scan.hasNext()) {
                KeyValue kv = scan.next();
                rows.add(DueRows.decode(kv.key(), kv.value()));
            }
        }
        if (rows.isEmpty()) {
            return PurgedRows.NONE;
        }
        DeliveryBatch batch = new DeliveryBatch();
        rows.forEach(row -> Deliveries.purgeDueOps(batch, row));
        batch.commit(store, Durability.SYNC);
        long retries = rows.stream().filter(r -> r.kind() == DueKind.RETRY).count();
        return new PurgedRows(rows.size() - retries, retries, 0, rows.stream().mapToLong(DueRow::size).sum());
    }

    /** Purges up to {@code limit} of {@code ord}'s oldest dead rows in one synced batch; returns how many. */
    public int purgeDeadChunk(long ord, int limit) {
        return purgeDeadRows(ord, limit).rows();
    }

    /** Purges up to {@code limit} of {@code ord}'s oldest dead rows in one synced batch; returns what it removed. */
    public PurgedRows purgeDeadRows(long ord, int limit) {
        Ordinals.requireTenant(ord);
        return stripes.locked(ord, () -> {
            List<DeadRow> rows = new ArrayList<>();
            try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(DeadByTenantKey.tenantRange(ord)))) {
                while (rows.size() < limit && scan.hasNext()) {
                    DeadByTenantKey k = DeadByTenantKey.decode(scan.next().key());
                    rows.add(new DeadRow(k.ord(), k.at(), k.seq(), k.sink()));
                }
            }
            if (rows.isEmpty()) {
                return PurgedRows.NONE;
            }
            List<Optional<byte[]>> deliveryRows = store.multiGet(ColumnFamilies.DELIVERIES,
                    rows.stream().map(d -> new DeliveryKey(d.seq(), d.sink()).encode()).toList());
            DeliveryBatch batch = new DeliveryBatch();
            long bytes = 0;
            for (int i = 0; i < rows.size(); i++) {
                long size = 0;
                if (deliveryRows.get(i).isPresent()) {
                    size = DeliveryRow.decode(deliveryRows.get(i).get()).size();
                } else {
                    LOG.warn("dead row {} has no delivery row; purging it with size 0", rows.get(i));
                }
                Deliveries.purgeDeadOps(batch, rows.get(i), size);
                bytes += size;
            }
            batch.commit(store, Durability.SYNC);
            return new PurgedRows(0, 0, rows.size(), bytes);
        });
    }
}
