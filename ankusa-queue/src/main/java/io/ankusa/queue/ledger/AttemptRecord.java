package io.ankusa.queue.ledger;

import io.ankusa.api.AttemptErrorClass;
import io.ankusa.api.events.AttemptOutcome;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One finished attempt, for the attempt history: {@link DeliveryLedger#settle(java.util.List, java.util.List)}
 * records it in the batch that settles its row, and only if that row was settled there.
 *
 * @param row           the inflight row the attempt was made for
 * @param hookId        the hook's id
 * @param attempt       the attempt number
 * @param at            when the attempt started, epoch milliseconds (the queue clock)
 * @param outcome       how the sink answered
 * @param status        the HTTP status, when there was one
 * @param latencyMicros from handing the delivery to the sink until its outcome, microseconds
 * @param errorClass    why it failed ({@link AttemptErrorClass#NONE} when delivered)
 * @param reason        the sink's reason (empty when delivered)
 * @param outOfOrder    whether the attempt was made outside its ordering key's order
 *                      ({@link ClaimedDelivery#outOfOrder()})
 */
public record AttemptRecord(InflightRow row, String hookId, int attempt, long at, AttemptOutcome outcome,
        OptionalInt status, long latencyMicros, AttemptErrorClass errorClass, String reason, boolean outOfOrder) {

    /** An attempt made in its ordering key's order, or of a hook without an ordering key. */
    public AttemptRecord(InflightRow row, String hookId, int attempt, long at, AttemptOutcome outcome,
            OptionalInt status, long latencyMicros, AttemptErrorClass errorClass, String reason) {
        this(row, hookId, attempt, at, outcome, status, latencyMicros, errorClass, reason, false);
    }

    /** Checks the fields. */
    public AttemptRecord {
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(errorClass, "errorClass");
        Objects.requireNonNull(reason, "reason");
        if (attempt < 0 || at < 0 || latencyMicros < 0) {
            throw new IllegalArgumentException("attempt, at and latency must be >= 0");
        }
        status.ifPresent(s -> {
            if (s < 0 || s > 0xFFFF) {
                throw new IllegalArgumentException("status out of range: " + s);
            }
        });
    }
}
