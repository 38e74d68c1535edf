package io.ankusa.dispatch.report;

import java.util.Objects;

/**
 * One ordering key of a tenant with deliveries waiting on one sink: its head (the one delivery of
 * the key that may be attempted now, due, retrying or in flight), the head's attempts so far, and
 * how many wait behind it.
 *
 * @param tenantId    the tenant
 * @param sink        the sink number
 * @param orderingKey the key, as the head's hook carries it (empty when the head's hook cannot be read)
 * @param headHookId  the head's hook id (empty when its hook cannot be read)
 * @param headSeq     the head's hook seq
 * @param waiting     the key's deliveries not yet delivered or dead-lettered on this sink, the head included
 * @param headAttempts  the head's attempts so far (an attempt in flight counts once it is settled); 0
 *                      before its first
 * @param headLastError the sink's reason for the head's last failed attempt, empty before its first failure
 */
public record OrderedKey(String tenantId, int sink, String orderingKey, String headHookId, long headSeq,
        long waiting, int headAttempts, String headLastError) {

    /**
     * Checks the fields.
     *
     * @param tenantId    the tenant
     * @param sink        the sink number
     * @param orderingKey the key
     * @param headHookId  the head's hook id
     * @param headSeq     the head's hook seq
     * @param waiting     the key's deliveries waiting, the head included
     * @param headAttempts  the head's settled attempts
     * @param headLastError the head's last error, empty for none
     */
    public OrderedKey {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(headLastError, "headLastError");
        Objects.requireNonNull(orderingKey, "orderingKey");
        Objects.requireNonNull(headHookId, "headHookId");
    }

    /** {@return whether deliveries wait behind the head} */
    public boolean blocked() {
        return waiting > 1;
    }
}
