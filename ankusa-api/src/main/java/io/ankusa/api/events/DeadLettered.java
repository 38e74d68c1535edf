package io.ankusa.api.events;

import java.util.Objects;

/**
 * A delivery moved to the dead letters (a permanent failure, an endpoint outcome, or the retry
 * policy giving up).
 *
 * @param tenant   the hook's tenant
 * @param hookId   the hook's id
 * @param sink     the sink index
 * @param attempts attempts made
 * @param reason   why, as stored with the dead letter
 */
public record DeadLettered(String tenant, String hookId, int sink, int attempts, String reason) {

    /**
     * Validates.
     *
     * @param tenant the hook's tenant
     * @param hookId the hook's id
     * @param sink the sink index
     * @param attempts attempts made
     * @param reason why, as stored with the dead letter
     */
    public DeadLettered {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(reason, "reason");
    }
}
