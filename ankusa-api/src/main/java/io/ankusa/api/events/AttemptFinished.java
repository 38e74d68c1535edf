package io.ankusa.api.events;

import io.ankusa.api.AttemptErrorClass;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One sink attempt, as it ended.
 *
 * @param tenant  the hook's tenant
 * @param hookId  the hook's id
 * @param sink    the sink (endpoint) index of the delivery
 * @param attempt the attempt number, 1 for the first
 * @param outcome how it ended
 * @param status  the HTTP status the receiver answered, when the sink reports one (the built-in HTTP
 *                sink does whenever a response came back, 2xx included); empty otherwise
 * @param reason  the sink's reason, empty when delivered
 * @param latency from handing the delivery to the sink until its outcome (or the sink deadline)
 * @param errorClass the class of the failure, {@link AttemptErrorClass#NONE} when delivered
 */
public record AttemptFinished(String tenant, String hookId, int sink, int attempt, AttemptOutcome outcome,
        OptionalInt status, String reason, Duration latency, AttemptErrorClass errorClass) {

    /**
     * Validates.
     *
     * @param tenant the hook's tenant
     * @param hookId the hook's id
     * @param sink the sink (endpoint) index of the delivery
     * @param attempt the attempt number, 1 for the first
     * @param outcome how it ended
     * @param status the HTTP status the receiver answered, when the sink is the built-in HTTP sink and a response came
     *     back; empty otherwise
     * @param reason the sink's reason, empty when delivered
     * @param latency from handing the delivery to the sink until its outcome (or the sink deadline)
     * @param errorClass the class of the failure, {@link AttemptErrorClass#NONE} when delivered
     */
    public AttemptFinished {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(errorClass, "errorClass");
    }

    /**
     * An attempt whose failure class is not known ({@link AttemptErrorClass#NONE} when delivered,
     * else {@link AttemptErrorClass#OTHER}).
     *
     * @param tenant the hook's tenant
     * @param hookId the hook's id
     * @param sink the sink (endpoint) index of the delivery
     * @param attempt the attempt number, 1 for the first
     * @param outcome how it ended
     * @param status the HTTP status the receiver answered, when there was one
     * @param reason the sink's reason, empty when delivered
     * @param latency from handing the delivery to the sink until its outcome (or the sink deadline)
     */
    public AttemptFinished(String tenant, String hookId, int sink, int attempt, AttemptOutcome outcome,
            OptionalInt status, String reason, Duration latency) {
        this(tenant, hookId, sink, attempt, outcome, status, reason, latency,
                outcome == AttemptOutcome.DELIVERED ? AttemptErrorClass.NONE : AttemptErrorClass.OTHER);
    }
}
