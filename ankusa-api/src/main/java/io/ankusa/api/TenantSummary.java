package io.ankusa.api;

import java.util.Objects;

/**
 * One tenant of a {@link TenantPage}: its id and its counters, as {@code Queue.pendingForTenant}
 * gives them.
 *
 * @param tenantId the tenant's id
 * @param stats    its pending, scheduled, inflight, dead and quarantined rows and its row bytes
 */
public record TenantSummary(String tenantId, TenantStats stats) {

    /**
     * Checks the fields.
     *
     * @param tenantId the tenant's id
     * @param stats its counters
     */
    public TenantSummary {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(stats, "stats");
    }

    /** {@return its dead letters, as {@code Queue.deadForTenant} gives them} */
    public DeadStats deadStats() {
        return new DeadStats(stats.dead());
    }

    /** {@return the cursor that continues a listing after this tenant} */
    public TenantCursor cursor() {
        return new TenantCursor(tenantId);
    }
}
