package io.ankusa.queue.deliveries;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.EndpointKey;
import io.ankusa.queue.ledger.EndpointLedger;
import io.ankusa.queue.ledger.EndpointRow;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The queue's endpoint states: the {@link EndpointKey ?E} family in memory, read whole from the
 * store on first use (one scan; it holds only endpoints that are disabled or failing), and kept
 * equal to the store by every write going through here.
 *
 * <p>Writers are serialized by {@link #writing}: the settler decides endpoint changes from
 * {@link #get}, commits them in its settle batch and {@link #applied applies} them, all inside
 * {@code writing}, so an operator's {@link #change} (which takes the same lock) can neither be
 * overwritten by a decision made before it nor leave memory and store apart. Reads ({@link #get},
 * {@link #epoch}) take no lock: the admission step asks per row.
 *
 * <p>{@link #epoch()} moves whenever an endpoint's disabled flag changes, so a reader that parked
 * work behind a disabled endpoint knows when to look again.
 */
public final class EndpointBook implements EndpointLedger {

    private final Store store;
    private final TenantStripes stripes;
    private final ConcurrentSkipListMap<Long, EndpointRow> rows = new ConcurrentSkipListMap<>();
    private final AtomicLong epoch = new AtomicLong();
    private final Object writes = new Object();
    private volatile boolean loaded;

    /** The book of {@code store}; reads nothing yet. */
    public EndpointBook(Store store, TenantStripes stripes) {
        this.store = Objects.requireNonNull(store, "store");
        this.stripes = Objects.requireNonNull(stripes, "stripes");
    }

    /** Endpoint {@code (ord, sink)}'s state: {@link EndpointRow#healthy} when nothing is stored. */
    @Override
    public EndpointRow get(long ord, int sink) {
        load();
        EndpointRow row = rows.get(EndpointRow.idOf(ord, sink));
        return row != null ? row : EndpointRow.healthy(ord, sink);
    }

    /** Moves when an endpoint is disabled or enabled (or a tenant's endpoints are forgotten). */
    @Override
    public long epoch() {
        return epoch.get();
    }

    /** Up to {@code limit} stored endpoints (disabled or failing), in (ord, sink) order. */
    public List<EndpointRow> list(int limit) {
        load();
        List<EndpointRow> out = new ArrayList<>();
        for (EndpointRow row : rows.values()) {
            if (out.size() == limit) {
                break;
            }
            out.add(row);
        }
        return out;
    }

    /** Up to {@code limit} of tenant {@code ord}'s stored endpoints, in sink order. */
    public List<EndpointRow> tenant(long ord, int limit) {
        load();
        List<EndpointRow> out = new ArrayList<>();
        for (EndpointRow row : rows.subMap(EndpointRow.idOf(ord, 0), EndpointRow.idOf(ord + 1, 0)).values()) {
            if (out.size() == limit) {
                break;
            }
            out.add(row);
        }
        return out;
    }

    /** Runs {@code body} as the one endpoint writer: decide from {@link #get}, commit, {@link #applied}. */
    @Override
    public <T> T writing(Supplier<T> body) {
        load();
        synchronized (writes) {
            return body.get();
        }
    }

    /** After a commit inside {@link #writing}: {@code written} rows are what the store holds now. */
    @Override
    public void applied(List<EndpointRow> written) {
        for (EndpointRow row : written) {
            EndpointRow before = row.stored() ? rows.put(row.id(), row) : rows.remove(row.id());
            boolean wasDisabled = before != null && before.disabled();
            if (wasDisabled != row.disabled()) {
                epoch.incrementAndGet();
            }
        }
    }

    /**
     * Changes endpoint {@code (ord, sink)} as {@code change} says, in its own synced batch under
     * the tenant's stripe (an operator's enable or disable).
     *
     * @return the state before and after
     */
    public Change change(long ord, int sink, UnaryOperator<EndpointRow> change) {
        return writing(() -> stripes.locked(ord, () -> {
            EndpointRow before = get(ord, sink);
            EndpointRow after = Objects.requireNonNull(change.apply(before), "changed row");
            if (!after.equals(before)) {
                DeliveryBatch batch = new DeliveryBatch();
                Deliveries.endpointOps(batch, after);
                batch.commit(store, Durability.SYNC);
                applied(List.of(after));
            }
            return new Change(before, after);
        }));
    }

    /**
     * An endpoint's state before and after a change.
     *
     * @param before as it was
     * @param after  as it is
     */
    public record Change(EndpointRow before, EndpointRow after) {
    }

    /** Tenant {@code ord} was erased (its {@code ?E} rows with it): forgets its endpoints. */
    public void forget(long ord) {
        synchronized (writes) {
            rows.subMap(EndpointRow.idOf(ord, 0), EndpointRow.idOf(ord + 1, 0)).clear();
            epoch.incrementAndGet();
        }
    }

    private void load() {
        if (loaded) {
            return;
        }
        synchronized (writes) {
            if (loaded) {
                return;
            }
            try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(EndpointKey.FAMILY.between()))) {
                while (scan.hasNext()) {
                    KeyValue kv = scan.next();
                    EndpointRow row = Deliveries.endpointRow(kv.key(), kv.value());
                    rows.put(row.id(), row);
                }
            }
            loaded = true;
        }
    }
}
