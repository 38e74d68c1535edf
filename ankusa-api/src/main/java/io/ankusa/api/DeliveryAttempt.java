package io.ankusa.api;

import io.ankusa.api.events.AttemptOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One recorded delivery attempt, from the attempt history (written in the batch that settled the
 * attempt, so a settled attempt is always in the history until the bound or the retention removes it).
 *
 * @param tenantId   the tenant
 * @param hookId     the hook's id
 * @param seq        the hook's seq (as in its {@link Receipt})
 * @param sink       the sink number
 * @param attempt    the attempt number, 1 for the first (numbering starts again after a replay)
 * @param at         when the attempt started
 * @param outcome    how the sink answered
 * @param status     the HTTP status the receiver answered, when there was one
 * @param latency    from handing the delivery to the sink until its outcome
 * @param errorClass why it failed, {@link AttemptErrorClass#NONE} when delivered
 * @param reason     the sink's reason, shortened to at most 200 bytes; empty when delivered
 * @param outOfOrder whether the attempt was made outside its ordering key's order: the hook carries an
 *                   ordering key, but this delivery had no place in the key's order (a replayed dead
 *                   letter, such as a head skipped by the ordering policy, a delivery added by
 *                   expansion, or one released from the quarantine), so it was attempted whenever its
 *                   tenant's turn came, not after the earlier deliveries of its key; false for a hook
 *                   without an ordering key
 */
public record DeliveryAttempt(String tenantId, String hookId, long seq, int sink, int attempt, Instant at,
        AttemptOutcome outcome, OptionalInt status, Duration latency, AttemptErrorClass errorClass, String reason,
        boolean outOfOrder) {

    /**
     * Checks the fields.
     *
     * @param tenantId the tenant
     * @param hookId the hook's id
     * @param seq the hook's seq (as in its {@link Receipt})
     * @param sink the sink number
     * @param attempt the attempt number, 1 for the first (numbering starts again after a replay)
     * @param at when the attempt started
     * @param outcome how the sink answered
     * @param status the HTTP status the receiver answered, when there was one
     * @param latency from handing the delivery to the sink until its outcome
     * @param errorClass why it failed, {@link AttemptErrorClass#NONE} when delivered
     * @param reason the sink's reason, shortened to at most 200 bytes; empty when delivered
     * @param outOfOrder whether the attempt was made outside its ordering key's order
     */
    public DeliveryAttempt {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(errorClass, "errorClass");
        Objects.requireNonNull(reason, "reason");
    }

    /**
     * An attempt made in its ordering key's order, or of a hook without an ordering key.
     *
     * @param tenantId the tenant
     * @param hookId the hook's id
     * @param seq the hook's seq (as in its {@link Receipt})
     * @param sink the sink number
     * @param attempt the attempt number, 1 for the first (numbering starts again after a replay)
     * @param at when the attempt started
     * @param outcome how the sink answered
     * @param status the HTTP status the receiver answered, when there was one
     * @param latency from handing the delivery to the sink until its outcome
     * @param errorClass why it failed, {@link AttemptErrorClass#NONE} when delivered
     * @param reason the sink's reason, shortened to at most 200 bytes; empty when delivered
     */
    public DeliveryAttempt(String tenantId, String hookId, long seq, int sink, int attempt, Instant at,
            AttemptOutcome outcome, OptionalInt status, Duration latency, AttemptErrorClass errorClass, String reason) {
        this(tenantId, hookId, seq, sink, attempt, at, outcome, status, latency, errorClass, reason, false);
    }

    /** {@return the position of this attempt, to continue a listing after it} */
    public AttemptCursor cursor() {
        return new AttemptCursor(at.toEpochMilli(), seq, sink, attempt);
    }
}
