package io.ankusa.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Proof that a hook is durably queued: returned after the synced commit that wrote it.
 *
 * <p>{@link #sinks()} says where the commit sent the hook: its own sinks, or for a hook with an
 * event type the sinks of the endpoints it fanned out to — an empty list when no endpoint of the
 * tenant subscribes to the type (the hook is acknowledged with no delivery). A repeat of an
 * idempotency key is answered from the dedupe entry, which keeps the first hook's id and seq
 * only, so its receipt names the same hook and seq with {@code sinks} empty. Two receipts are equal
 * when they name the same hook — id, tenant and seq — so a repeat's receipt equals the first one's.
 *
 * @param hookId   the hook's id
 * @param tenantId the tenant it was filed under ({@code "default"} for a hook without one)
 * @param seq      its commit sequence number (commit order, never reused)
 * @param sinks    the sinks its deliveries were written for, in order; empty for a repeat's receipt
 */
public record Receipt(String hookId, String tenantId, long seq, Optional<List<Integer>> sinks) {

    /**
     * Checks the fields; copies the sinks.
     *
     * @param hookId the hook's id
     * @param tenantId the tenant it was filed under ({@code "default"} for a hook without one)
     * @param seq its commit sequence number (commit order, never reused)
     * @param sinks the sinks its deliveries were written for; empty for a repeat's receipt
     */
    public Receipt {
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(sinks, "sinks");
        if (seq < 1) {
            throw new IllegalArgumentException("seq must be >= 1: " + seq);
        }
        sinks = sinks.map(List::copyOf);
    }

    /**
     * A receipt that does not say where the hook was sent (a repeat's).
     *
     * @param hookId the hook's id
     * @param tenantId the tenant it was filed under
     * @param seq its commit sequence number
     */
    public Receipt(String hookId, String tenantId, long seq) {
        this(hookId, tenantId, seq, Optional.empty());
    }

    /**
     * Whether the commit wrote no delivery for the hook: an event type no endpoint subscribes to.
     * False for a repeat's receipt, which does not say.
     *
     * @return whether the receipt names no sink
     */
    public boolean noDeliveries() {
        return sinks.map(List::isEmpty).orElse(false);
    }

    /**
     * Whether {@code o} is a receipt of the same hook: the same id, tenant and seq ({@link #sinks}
     * is left out, so a repeat's receipt equals the first one's).
     *
     * @param o the other object
     * @return whether both name the same hook
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof Receipt r && seq == r.seq && hookId.equals(r.hookId) && tenantId.equals(r.tenantId);
    }

    /** {@return a hash of the id, tenant and seq} */
    @Override
    public int hashCode() {
        return Objects.hash(hookId, tenantId, seq);
    }
}
