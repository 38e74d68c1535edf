package io.ankusa.dispatch.report;

import java.util.Objects;

/**
 * One ordering key of a tenant with deliveries waiting on one sink: its head (the one delivery of
 * the key that may be attempted now, due, retrying or in flight) and how many wait behind it.
 *
 * @param tenantId    the tenant
 * @param sink        the sink number
 * @param orderingKey the key, as the head's hook carries it (empty when the head's hook cannot be read)
 * @param headHookId  the head's hook id (empty when its hook cannot be read)
 * @param headSeq     the head's hook seq
 * @param waiting     the key's deliveries not yet delivered or dead-lettered on this sink, the head included
 */
public record OrderedKey(String tenantId, int sink, String orderingKey, String headHookId, long headSeq,
        long waiting) {

    /**
     * Checks the fields.
     *
     * @param tenantId    the tenant
     * @param sink        the sink number
     * @param orderingKey the key
     * @param headHookId  the head's hook id
     * @param headSeq     the head's hook seq
     * @param waiting     the key's deliveries waiting, the head included
     */
    public OrderedKey {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(orderingKey, "orderingKey");
        Objects.requireNonNull(headHookId, "headHookId");
    }

    /** {@return whether deliveries wait behind the head} */
    public boolean blocked() {
        return waiting > 1;
    }
}
