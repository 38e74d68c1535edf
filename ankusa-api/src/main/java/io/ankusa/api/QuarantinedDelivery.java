package io.ankusa.api;

import java.time.Instant;
import java.util.Objects;

/**
 * A delivery the queue moved aside because its stored hook or delivery row does not decode
 * (corruption): kept, counted in {@link QueueStats#quarantined()}, never sent, until an operator
 * releases it back to due (after restoring the hook) or purges it.
 *
 * @param tenant        the tenant it is filed under
 * @param seq           the hook's sequence number (its id cannot be read: the hook does not decode)
 * @param sink          the sink number
 * @param bytes         the envelope size the row carried
 * @param reason        why it was moved aside
 * @param quarantinedAt when
 */
public record QuarantinedDelivery(String tenant, long seq, int sink, long bytes, Reason reason, Instant quarantinedAt) {

    /** Why a delivery was quarantined. */
    public enum Reason {
        /** The stored hook does not decode (on LMDB, which has no checksums, any damaged byte inside it). */
        HOOK_UNDECODABLE,
        /** The stored delivery row (attempts, last error) does not decode. */
        DELIVERY_ROW_UNDECODABLE
    }

    /**
     * Checks the fields.
     *
     * @param tenant        the tenant it is filed under
     * @param seq           the hook's sequence number
     * @param sink          the sink number
     * @param bytes         the envelope size the row carried
     * @param reason        why it was moved aside
     * @param quarantinedAt when
     */
    public QuarantinedDelivery {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(quarantinedAt, "quarantinedAt");
    }
}
