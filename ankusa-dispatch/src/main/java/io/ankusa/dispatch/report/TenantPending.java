package io.ankusa.dispatch.report;

import java.util.Objects;

/**
 * One tenant's first-attempt backlog, as the top-tenants gauge reports it.
 *
 * @param tenantId the tenant
 * @param pending  its pending counter: first-attempt rows waiting
 */
public record TenantPending(String tenantId, long pending) {

    /**
     * Validates.
     *
     * @param tenantId the tenant
     * @param pending its pending counter: first-attempt rows waiting
     */
    public TenantPending {
        Objects.requireNonNull(tenantId, "tenantId");
    }
}
