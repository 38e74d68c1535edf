package io.ankusa.api.events;

import java.time.Instant;
import java.util.Objects;

/**
 * The retry policy scheduled another attempt of a delivery, and the row is due again.
 *
 * @param tenant      the hook's tenant
 * @param hookId      the hook's id
 * @param sink        the sink index
 * @param attempt     the attempt that failed (the next one is {@code attempt + 1})
 * @param nextAttempt when the row is due again
 * @param reason      the failed attempt's reason
 */
public record RetryScheduled(String tenant, String hookId, int sink, int attempt, Instant nextAttempt, String reason) {

    /**
     * Validates.
     *
     * @param tenant the hook's tenant
     * @param hookId the hook's id
     * @param sink the sink index
     * @param attempt the attempt that failed (the next one is {@code attempt + 1})
     * @param nextAttempt when the row is due again
     * @param reason the failed attempt's reason
     */
    public RetryScheduled {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(nextAttempt, "nextAttempt");
        Objects.requireNonNull(reason, "reason");
    }
}
