package io.ankusa.api.events;

import java.util.Objects;

/**
 * A claimed row was settled and the settlement committed. A dropped row (its hook gone or
 * undecodable) has no hook to name: its {@code tenant} and {@code hookId} are empty and
 * {@code seq} identifies it.
 *
 * @param tenant the hook's tenant, empty for a dropped row
 * @param hookId the hook's id, empty for a dropped row
 * @param seq    the hook's sequence number in the store
 * @param sink   the sink index
 * @param result how it was settled
 */
public record DeliverySettled(String tenant, String hookId, long seq, int sink, Result result) {

    /** How a row was settled. */
    public enum Result {
        /** Delivered: the row is gone. */
        DELIVERED,
        /** Due again later as a retry. */
        RETRIED,
        /** Moved to the dead letters. */
        DEAD,
        /** Its hook was gone or did not decode: the row was dropped. */
        DROPPED
    }

    /**
     * Validates.
     *
     * @param tenant the hook's tenant, empty for a dropped row
     * @param hookId the hook's id, empty for a dropped row
     * @param seq the hook's sequence number in the store
     * @param sink the sink index
     * @param result how it was settled
     */
    public DeliverySettled {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(result, "result");
    }
}
