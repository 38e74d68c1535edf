package io.ankusa.queue.intake;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.queue.deliveries.DeliveryBatch;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The tenants of one ingest batch resolved to ordinals.
 *
 * @param ords      every accepted tenant's ordinal, in first-sight order
 * @param found     tenants read from the store (cache misses that had a row)
 * @param allocated tenants given a new ordinal by this batch
 * @param refused   new tenants refused because the cap is reached
 * @param nextOrd   the next ordinal after this batch
 */
public record Resolution(Map<String, Long> ords, Map<String, Long> found, Map<String, Long> allocated,
        List<String> refused, long nextOrd) {

    /** Copies the collections. */
    public Resolution {
        ords = Map.copyOf(ords);
        found = Map.copyOf(found);
        allocated = Map.copyOf(allocated);
        refused = List.copyOf(refused);
    }

    /** The ordinal of {@code tenant}, or empty when it was refused. */
    public OptionalLong ord(String tenant) {
        Long ord = ords.get(tenant);
        return ord == null ? OptionalLong.empty() : OptionalLong.of(ord);
    }

    /**
     * Adds the {@link io.ankusa.keys.TenantByOrdKey ?t}, {@link io.ankusa.keys.OrdByTenantKey ?n} and
     * {@code m:next_ord} puts of the allocations (none if nothing was allocated).
     */
    public void writeTo(DeliveryBatch batch) {
        if (allocated.isEmpty()) {
            return;
        }
        allocated.forEach((tenant, ord) -> {
            batch.put(ColumnFamilies.TENANTS, new TenantByOrdKey(ord).encode(), TenantByOrdKey.value(tenant));
            batch.put(ColumnFamilies.TENANTS, new OrdByTenantKey(tenant).encode(), OrdByTenantKey.value(ord));
        });
        batch.put(ColumnFamilies.DEFAULT, MetaKeys.NEXT_ORD, MetaKeys.u32Value(nextOrd));
    }
}
