package io.ankusa.api;

import java.time.Instant;
import java.util.Objects;

/**
 * One dead letter: a delivery of a hook to a sink that will not be retried unless revived.
 *
 * @param tenantId  the tenant it is filed under
 * @param sourceId  the hook's source id
 * @param hookId    the hook's id
 * @param seq       the hook's commit sequence number (as in its {@link Receipt})
 * @param sink      the sink number
 * @param deadAt    when it was dead-lettered
 * @param attempts  how many attempts were made
 * @param lastError why the last attempt failed (as the sink reported it)
 */
public record DeadLetter(String tenantId, String sourceId, String hookId, long seq, int sink, Instant deadAt,
        int attempts, String lastError) {

    /**
     * Checks the fields.
     *
     * @param tenantId the tenant it is filed under
     * @param sourceId the hook's source id
     * @param hookId the hook's id
     * @param seq the hook's commit sequence number (as in its {@link Receipt})
     * @param sink the sink number
     * @param deadAt when it was dead-lettered
     * @param attempts how many attempts were made
     * @param lastError why the last attempt failed (as the sink reported it)
     */
    public DeadLetter {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(deadAt, "deadAt");
        Objects.requireNonNull(lastError, "lastError");
    }

    /**
     * {@return this letter's position in newest-first order: a page {@link DeadLetterQuery#after after} it starts
     * with the next older one}
     */
    public DeadLetterCursor cursor() {
        return new DeadLetterCursor(deadAt.toEpochMilli(), seq, sink);
    }
}
