package io.ankusa.api;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One delivery (sink) of a {@link StoredHook}: its state and what its delivery row records.
 *
 * @param sink          the sink number
 * @param state         where the delivery stands
 * @param attempts      attempts made since it was ingested or last replayed (0 when {@link DeliveryState#FINISHED}:
 *                      no row is left; the attempt history has them)
 * @param lastAttemptAt when the last attempt ended, if one was made and a row is left; for a
 *                      {@link DeliveryState#DEAD} delivery, when it was dead-lettered
 * @param lastError     why the last attempt failed, as the sink reported it; empty if none failed or no row is left
 */
public record StoredDelivery(int sink, DeliveryState state, int attempts, Optional<Instant> lastAttemptAt,
        String lastError) {

    /**
     * Checks the fields.
     *
     * @param sink the sink number
     * @param state where the delivery stands
     * @param attempts attempts made
     * @param lastAttemptAt when the last attempt ended, if known
     * @param lastError why the last attempt failed; empty if none failed
     */
    public StoredDelivery {
        if (sink < 0 || sink > 0xFFFF) {
            throw new IllegalArgumentException("sink out of range 0..65535: " + sink);
        }
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(lastAttemptAt, "lastAttemptAt");
        Objects.requireNonNull(lastError, "lastError");
        if (attempts < 0) {
            throw new IllegalArgumentException("attempts must be >= 0: " + attempts);
        }
    }

    /**
     * A delivery with no row left.
     *
     * @param sink the sink number
     * @return the sink, {@link DeliveryState#FINISHED}, nothing recorded
     */
    public static StoredDelivery finished(int sink) {
        return new StoredDelivery(sink, DeliveryState.FINISHED, 0, Optional.empty(), "");
    }
}
