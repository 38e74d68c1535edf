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
 */
public record DeliveryAttempt(String tenantId, String hookId, long seq, int sink, int attempt, Instant at,
        AttemptOutcome outcome, OptionalInt status, Duration latency, AttemptErrorClass errorClass, String reason) {

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

    /** {@return the position of this attempt, to continue a listing after it} */
    public AttemptCursor cursor() {
        return new AttemptCursor(at.toEpochMilli(), seq, sink, attempt);
    }
}
