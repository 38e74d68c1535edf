package io.ankusa.queue.deliveries;

import io.ankusa.api.DeliveryState;
import io.ankusa.api.Hook;
import io.ankusa.api.StoredDelivery;
import io.ankusa.api.StoredHook;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadByTenantKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.QuarantineKey;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads one stored hook by its tenant and seq, with the state of each of its deliveries, in point
 * reads: the hook (one get), its delivery rows (one scan of the hook's own {@code deliveries} range,
 * at most one row per sink) and, for each row, its {@link InflightKey ?F}, {@link QuarantineKey ?Q}
 * and {@link DeadByTenantKey ?X} keys (one multi-get). A dead row is found by its key because the
 * settle that dead-letters a delivery files it under the time it writes as the row's last attempt;
 * a row with none of the three keys is due (the due key holds the due time, which no read by seq can
 * name).
 *
 * <p>The reads take no stripe: a delivery settled or claimed between them shows one of the states it
 * passed through. A hook of another tenant reads as absent. A hook whose every delivery ended is
 * deleted (by the settle that delivered its last row, or by reclaim), and then reads as absent too.
 */
public final class HookReads {

    private HookReads() {
    }

    /**
     * The hook {@code seq} of tenant {@code ord}.
     *
     * @param store  the store
     * @param ord    the tenant's ordinal
     * @param tenant the tenant's id
     * @param seq    the hook's seq
     * @return the hook and its deliveries, or empty when the tenant holds no hook of that seq
     */
    public static Optional<StoredHook> read(Store store, long ord, String tenant, long seq) {
        if (seq < 1) {
            return Optional.empty();
        }
        Optional<byte[]> stored = store.get(ColumnFamilies.HOOKS, new HookKey(seq).encode());
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        Optional<HookEnvelope> envelope = decoded(stored.get());
        if (envelope.isPresent() && !envelope.get().hook().tenant().equals(tenant)) {
            return Optional.empty();
        }
        Map<Integer, Optional<DeliveryRow>> rows = rows(store, seq);
        List<Integer> owed = new ArrayList<>(rows.keySet());
        List<byte[]> keys = new ArrayList<>(owed.size() * 3);
        for (int sink : owed) {
            long lastAttemptAt = rows.get(sink).map(DeliveryRow::lastAttemptAt).orElse(0L);
            keys.add(new InflightKey(ord, seq, sink).encode());
            keys.add(new QuarantineKey(ord, seq, sink).encode());
            keys.add(new DeadByTenantKey(ord, lastAttemptAt, seq, sink).encode());
        }
        List<Optional<byte[]>> found = keys.isEmpty() ? List.of() : store.multiGet(ColumnFamilies.INDEX, keys);
        TreeMap<Integer, StoredDelivery> deliveries = new TreeMap<>();
        boolean filedUnderTenant = false;
        for (int i = 0; i < owed.size(); i++) {
            int sink = owed.get(i);
            DeliveryState state;
            if (found.get(3 * i).isPresent()) {
                state = DeliveryState.IN_FLIGHT;
            } else if (found.get(3 * i + 1).isPresent()) {
                state = DeliveryState.QUARANTINED;
            } else if (found.get(3 * i + 2).isPresent()) {
                state = DeliveryState.DEAD;
            } else {
                state = DeliveryState.DUE;
            }
            filedUnderTenant |= state != DeliveryState.DUE;
            Optional<DeliveryRow> row = rows.get(sink);
            deliveries.put(sink, new StoredDelivery(sink, state, row.map(DeliveryRow::attempts).orElse(0),
                    row.filter(r -> r.lastAttemptAt() > 0).map(r -> Instant.ofEpochMilli(r.lastAttemptAt())),
                    row.map(DeliveryRow::lastError).orElse("")));
        }
        if (envelope.isEmpty()) {
            // Without the hook its tenant is known only from index keys under the tenant's ordinal.
            if (!filedUnderTenant) {
                return Optional.empty();
            }
            return Optional.of(new StoredHook(tenant, seq, Optional.empty(), Optional.empty(),
                    List.copyOf(deliveries.values())));
        }
        Hook hook = envelope.get().hook();
        for (int sink : hook.sinks()) {
            deliveries.putIfAbsent(sink, StoredDelivery.finished(sink));
        }
        return Optional.of(new StoredHook(tenant, seq, Optional.of(hook),
                Optional.of(Instant.ofEpochMilli(envelope.get().receivedAt())), List.copyOf(deliveries.values())));
    }

    private static Optional<HookEnvelope> decoded(byte[] stored) {
        try {
            return Optional.of(HookEnvelope.decode(stored));
        } catch (StoreCorruptionException undecodable) {
            return Optional.empty();
        }
    }

    /** The hook's delivery rows by sink; a row that does not decode is present and empty. */
    private static Map<Integer, Optional<DeliveryRow>> rows(Store store, long seq) {
        Map<Integer, Optional<DeliveryRow>> rows = new TreeMap<>();
        KeySpan range = DeliveryKey.hookRange(seq);
        try (Scan scan = store.scan(ColumnFamilies.DELIVERIES, KeyRange.of(range.from(), range.to()))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                if (kv.key().length != DeliveryKey.LENGTH) {
                    continue;
                }
                int sink = DeliveryKey.decode(kv.key()).sink();
                Optional<DeliveryRow> row;
                try {
                    row = Optional.of(DeliveryRow.decode(kv.value()));
                } catch (StoreCorruptionException undecodable) {
                    row = Optional.empty();
                }
                rows.put(sink, row);
            }
        }
        return rows;
    }
}
