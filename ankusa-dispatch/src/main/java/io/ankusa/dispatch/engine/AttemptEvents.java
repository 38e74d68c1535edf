package io.ankusa.dispatch.engine;

import io.ankusa.api.events.AttemptFinished;
import io.ankusa.api.events.AttemptOutcome;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.ledger.AttemptRecord;
import io.ankusa.queue.ledger.ClaimedDelivery;
import java.time.Duration;

/** Turns a sink's answer into the {@link AttemptFinished} event and the attempt history's record. */
final class AttemptEvents {

    private AttemptEvents() {
    }

    static AttemptFinished finished(ClaimedDelivery c, SinkOutcome outcome, long nanos) {
        return new AttemptFinished(c.tenantId(), c.hookId(), c.sink(), c.attempt(), outcomeOf(outcome),
                outcome.status(), outcome.reason(), Duration.ofNanos(nanos), outcome.errorClass());
    }

    /** The history record of an attempt that started at {@code startedAt} (epoch ms) and took {@code nanos}. */
    static AttemptRecord record(ClaimedDelivery c, SinkOutcome outcome, long startedAt, long nanos) {
        return new AttemptRecord(c.row(), c.hookId(), c.attempt(), startedAt, outcomeOf(outcome), outcome.status(),
                Math.max(0, nanos) / 1000, outcome.errorClass(), outcome.reason(), c.outOfOrder());
    }

    static AttemptOutcome outcomeOf(SinkOutcome outcome) {
        if (outcome instanceof SinkOutcome.Delivered) {
            return AttemptOutcome.DELIVERED;
        }
        if (outcome instanceof SinkOutcome.Retry) {
            return AttemptOutcome.RETRY;
        }
        if (outcome instanceof SinkOutcome.EndpointGone) {
            return AttemptOutcome.ENDPOINT_GONE;
        }
        if (outcome instanceof SinkOutcome.EndpointDisabled) {
            return AttemptOutcome.ENDPOINT_DISABLED;
        }
        return AttemptOutcome.DEAD;
    }
}
