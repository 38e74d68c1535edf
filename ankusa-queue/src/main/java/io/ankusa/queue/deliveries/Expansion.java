package io.ankusa.queue.deliveries;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.HookKey;
import io.ankusa.queue.ledger.DueStamps;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Adds deliveries to a hook already stored (for example a sink added after ingest, or rows
 * imported without an index). Reads the envelope for the tenant, resolves its existing ordinal
 * (expansion never allocates: only the ingest writer and the migration do), and writes a
 * first-attempt due row per sink that has no delivery row yet, under the tenant's stripe. The hook
 * is checked again under the stripe: reclaim removes a hook nobody owes under the same stripe, so
 * a hook reclaimed between the first read and the lock is not given rows it can no longer serve.
 */
public final class Expansion {

    private final Store store;
    private final TenantStripes stripes;
    private final Function<String, OptionalLong> ordOf;
    private final DueStamps stamps;

    /**
     * Expansion over {@code store}; {@code ordOf} looks a tenant's ordinal up; its rows are due at
     * a stamp of {@code stamps}, held until their batch is committed.
     */
    public Expansion(Store store, TenantStripes stripes, Function<String, OptionalLong> ordOf, DueStamps stamps) {
        this.store = Objects.requireNonNull(store, "store");
        this.stripes = Objects.requireNonNull(stripes, "stripes");
        this.ordOf = Objects.requireNonNull(ordOf, "ordOf");
        this.stamps = Objects.requireNonNull(stamps, "stamps");
    }

    /**
     * Adds a due delivery of hook {@code seq} for each of {@code sinks} that has no delivery row.
     * Returns how many were added.
     *
     * @throws IllegalArgumentException when the hook does not exist
     * @throws IllegalStateException    when the hook's tenant has no ordinal
     */
    public int expand(long seq, Collection<Integer> sinks) {
        Optional<byte[]> raw = store.get(ColumnFamilies.HOOKS, new HookKey(seq).encode());
        if (raw.isEmpty()) {
            throw new IllegalArgumentException("no hook with seq " + seq);
        }
        byte[] envelope = raw.get();
        String tenant = HookEnvelope.decode(envelope).hook().tenant();
        long ord = ordOf.apply(tenant).orElseThrow(() -> new IllegalStateException(
                "tenant '" + tenant + "' of hook " + seq + " has no ordinal; only ingest allocates ordinals"));
        List<Integer> wanted = List.copyOf(new LinkedHashSet<>(sinks));
        return stripes.locked(ord, () -> {
            if (store.get(ColumnFamilies.HOOKS, new HookKey(seq).encode()).isEmpty()) {
                throw new IllegalArgumentException("no hook with seq " + seq + " (reclaimed meanwhile)");
            }
            List<Optional<byte[]>> rows = store.multiGet(ColumnFamilies.DELIVERIES,
                    wanted.stream().map(s -> new DeliveryKey(seq, s).encode()).toList());
            List<Integer> missing = new ArrayList<>();
            for (int i = 0; i < wanted.size(); i++) {
                if (rows.get(i).isEmpty()) {
                    missing.add(wanted.get(i));
                }
            }
            if (missing.isEmpty()) {
                return 0;
            }
            try (DueStamps.Held held = stamps.hold()) {
                DeliveryBatch batch = new DeliveryBatch();
                Deliveries.expandOps(batch, ord, seq, missing, envelope.length, held.millis());
                batch.commit(store, Durability.SYNC);
            }
            return missing.size();
        });
    }
}
