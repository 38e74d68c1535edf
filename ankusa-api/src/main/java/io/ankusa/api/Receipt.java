package io.ankusa.api;

import java.util.Objects;

/**
 * Proof that a hook is durably queued: returned after the synced commit that wrote it.
 *
 * @param hookId   the hook's id
 * @param tenantId the tenant it was filed under ({@code "default"} for a hook without one)
 * @param seq      its commit sequence number (commit order, never reused)
 */
public record Receipt(String hookId, String tenantId, long seq) {

    /**
     * Checks the fields.
     *
     * @param hookId the hook's id
     * @param tenantId the tenant it was filed under ({@code "default"} for a hook without one)
     * @param seq its commit sequence number (commit order, never reused)
     */
    public Receipt {
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(tenantId, "tenantId");
        if (seq < 1) {
            throw new IllegalArgumentException("seq must be >= 1: " + seq);
        }
    }
}
