package io.ankusa.queue.deliveries;

import io.ankusa.keys.ActiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.Prefixes;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One atomic batch of row transitions and the counter deltas that go with them. The
 * {@link Deliveries} op builders add to it; {@link #toWriteBatch()} appends
 * {@link Counters#ops} of all deltas once, so deltas coalesce across the whole batch.
 *
 * <p>The counted and derived index families ({@link io.ankusa.keys.DueKey ?D}
 * {@link io.ankusa.keys.InflightKey ?F} {@link io.ankusa.keys.DeadKey ?x}
 * {@link io.ankusa.keys.DeadByTenantKey ?X} {@link io.ankusa.keys.ArchiveKey ?a}
 * {@link io.ankusa.keys.ActiveKey ?A}
 * {@link io.ankusa.keys.QuarantineKey ?Q} {@link io.ankusa.keys.EndpointKey ?E}) and the ordering family
 * ({@link io.ankusa.keys.OrderKey ?O}) can only be written
 * through {@link Deliveries}: {@link #put} and {@link #delete} refuse them, and the counters
 * family takes no direct write at all. That is the structural half of the rule "a batch that
 * changes one of those keys without its deltas is a bug"; the property test is the other half.
 *
 * <p>Not thread-safe.
 */
public final class DeliveryBatch {

    private final WriteBatch rows = new WriteBatch();
    private final List<CounterDelta> deltas = new ArrayList<>();
    private final Set<ActiveKey> markers = new HashSet<>();

    /** An empty batch. */
    public DeliveryBatch() {
    }

    /** Puts a row of a family the op builders do not own (hooks, deliveries, tenants, meta, cleared, …). */
    public DeliveryBatch put(String family, byte[] key, byte[] value) {
        requireUncounted(family, key);
        rows.put(family, key, value);
        return this;
    }

    /** Deletes a row of a family the op builders do not own. */
    public DeliveryBatch delete(String family, byte[] key) {
        requireUncounted(family, key);
        rows.delete(family, key);
        return this;
    }

    /** Range-deletes keys of families the op builders do not own (for example the format-2 families). */
    public DeliveryBatch deleteRange(String family, byte[] from, byte[] to) {
        requireUncounted(family, from);
        if (family.equals(ColumnFamilies.INDEX)) {
            int prefix = from.length == 0 ? -1 : from[0] & 0xFF;
            boolean withinPrefix = prefix >= 0 && to.length > 0
                    && ((to[0] & 0xFF) == prefix || (to.length == 1 && (to[0] & 0xFF) == prefix + 1));
            if (!withinPrefix) {
                throw new IllegalArgumentException("an index range delete must stay within one prefix");
            }
        }
        rows.deleteRange(family, from, to);
        return this;
    }

    void putOrder(byte[] key) {
        rows.put(ColumnFamilies.ORDERING, key, new byte[0]);
    }

    void deleteOrder(byte[] key) {
        rows.delete(ColumnFamilies.ORDERING, key);
    }

    void putIndex(byte[] key, byte[] value) {
        rows.put(ColumnFamilies.INDEX, key, value);
    }

    void deleteIndex(byte[] key) {
        rows.delete(ColumnFamilies.INDEX, key);
    }

    void putRow(String family, byte[] key, byte[] value) {
        rows.put(family, key, value);
    }

    void deleteRow(String family, byte[] key) {
        rows.delete(family, key);
    }

    /** Puts the marker once per batch. */
    void marker(ActiveKey marker) {
        if (markers.add(marker)) {
            rows.put(ColumnFamilies.INDEX, marker.encode(), new byte[0]);
        }
    }

    void count(long ord, CounterField field, long delta) {
        deltas.add(new CounterDelta(ord, field, delta));
    }

    /** The counter deltas so far (before coalescing). */
    public List<CounterDelta> deltas() {
        return List.copyOf(deltas);
    }

    /** Whether nothing was added. */
    public boolean isEmpty() {
        return rows.isEmpty() && deltas.isEmpty();
    }

    /** Approximate encoded size of the row ops. */
    public long approximateBytes() {
        return rows.approximateBytes();
    }

    /** The store batch: the row ops in order, then the coalesced counter merges. */
    public WriteBatch toWriteBatch() {
        WriteBatch out = new WriteBatch().addAll(rows);
        Counters.appendTo(out, deltas);
        return out;
    }

    /** Commits {@link #toWriteBatch()}. */
    public void commit(Store store, Durability durability) {
        store.commit(toWriteBatch(), durability);
    }

    private static void requireUncounted(String family, byte[] key) {
        if (family.equals(ColumnFamilies.COUNTERS)) {
            throw new IllegalArgumentException("counters change only through counter deltas");
        }
        if (family.equals(ColumnFamilies.ORDERING) && key.length > 0) {
            throw new IllegalArgumentException("ordering keys are written through the Deliveries op builders");
        }
        if (family.equals(ColumnFamilies.INDEX) && key.length > 0) {
            byte p = key[0];
            if (p == Prefixes.DUE || p == Prefixes.INFLIGHT || p == Prefixes.DEAD || p == Prefixes.DEAD_BY_TENANT
                    || p == Prefixes.ARCHIVE || p == Prefixes.ACTIVE || p == Prefixes.QUARANTINE
                    || p == Prefixes.ENDPOINT) {
                throw new IllegalArgumentException("index key with prefix '" + (char) p
                        + "' must be written through the Deliveries op builders (it carries counter deltas)");
            }
        }
    }
}
