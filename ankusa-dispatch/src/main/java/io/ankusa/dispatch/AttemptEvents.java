package io.ankusa.dispatch;

import io.ankusa.api.events.AttemptFinished;
import io.ankusa.api.events.AttemptOutcome;
import io.ankusa.queue.ledger.ClaimedDelivery;
import java.time.Duration;
import java.util.OptionalInt;

/** Turns a sink's answer into the {@link AttemptFinished} event. */
final class AttemptEvents {

    /** The prefix of the built-in HTTP sink's reasons that carry a status ({@code "http 503"}). */
    private static final String HTTP = "http ";

    private AttemptEvents() {
    }

    static AttemptFinished finished(ClaimedDelivery c, SinkOutcome outcome, long nanos) {
        return new AttemptFinished(c.tenantId(), c.hookId(), c.sink(), c.attempt(), outcomeOf(outcome),
                statusOf(outcome), outcome.reason(), Duration.ofNanos(nanos));
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

    /**
     * The HTTP status of a non-2xx answer, read from the reason of the built-in HTTP sink
     * ({@code "http 503"}, {@code "endpoint_gone: http 410: …"}); a delivered attempt has none
     * (the sink reports no status for a success).
     */
    static OptionalInt statusOf(SinkOutcome outcome) {
        String reason = outcome.reason();
        int at = reason.startsWith(SinkOutcome.ENDPOINT_GONE + ": ") ? SinkOutcome.ENDPOINT_GONE.length() + 2 : 0;
        if (!reason.startsWith(HTTP, at) || reason.length() < at + HTTP.length() + 3) {
            return OptionalInt.empty();
        }
        int status = 0;
        for (int i = at + HTTP.length(); i < at + HTTP.length() + 3; i++) {
            char ch = reason.charAt(i);
            if (ch < '0' || ch > '9') {
                return OptionalInt.empty();
            }
            status = status * 10 + (ch - '0');
        }
        int end = at + HTTP.length() + 3;
        if (reason.length() > end && Character.isDigit(reason.charAt(end))) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(status);
    }
}
