package io.ankusa.api;

import java.util.Objects;

/**
 * What releasing or purging a tenant's quarantined deliveries moved.
 *
 * @param tenant the tenant
 * @param rows   quarantined deliveries released (back to due) or purged
 * @param bytes  their summed envelope sizes
 */
public record QuarantineResult(String tenant, long rows, long bytes) {

    /**
     * Checks the fields.
     *
     * @param tenant the tenant
     * @param rows   quarantined deliveries released or purged
     * @param bytes  their summed envelope sizes
     */
    public QuarantineResult {
        Objects.requireNonNull(tenant, "tenant");
    }

    /**
     * Nothing moved.
     *
     * @param tenant the tenant
     * @return a result with both counts zero
     */
    public static QuarantineResult none(String tenant) {
        return new QuarantineResult(tenant, 0, 0);
    }
}
