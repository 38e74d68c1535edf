package io.ankusa.api;

import java.util.Objects;

/**
 * What one {@code purgeTenant} call removed.
 *
 * @param tenantId  the tenant
 * @param pending   first-attempt due deliveries removed
 * @param scheduled retry due deliveries removed
 * @param dead      dead letters removed
 * @param bytes     envelope bytes no longer held (a hook with n removed deliveries counts n times)
 */
public record PurgeResult(String tenantId, long pending, long scheduled, long dead, long bytes) {

    /**
     * Checks the fields.
     *
     * @param tenantId the tenant
     * @param pending first-attempt due deliveries removed
     * @param scheduled retry due deliveries removed
     * @param dead dead letters removed
     * @param bytes envelope bytes no longer held (a hook with n removed deliveries counts n times)
     */
    public PurgeResult {
        Objects.requireNonNull(tenantId, "tenantId");
        if (pending < 0 || scheduled < 0 || dead < 0 || bytes < 0) {
            throw new IllegalArgumentException("counts must be >= 0");
        }
    }

    /**
     * Nothing removed.
     *
     * @param tenantId the tenant
     * @return a result with every count zero
     */
    public static PurgeResult none(String tenantId) {
        return new PurgeResult(tenantId, 0, 0, 0, 0);
    }

    /** {@return every delivery removed} */
    public long deliveries() {
        return pending + scheduled + dead;
    }
}
