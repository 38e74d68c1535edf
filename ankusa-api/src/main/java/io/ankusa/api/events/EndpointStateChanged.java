package io.ankusa.api.events;

import java.util.Objects;

/**
 * An endpoint's stored state changed, after the change was committed: {@code (tenant, sink)} was
 * disabled by a {@code 410} ({@link AttemptOutcome#ENDPOINT_GONE}; reason {@code gone: …}), by
 * failing for {@code endpoint.disable-after} ({@code failing: …}) or by an operator
 * ({@code operator}), or enabled again by an operator. Doing what is already so publishes nothing.
 *
 * @param tenant   the tenant
 * @param sink     the sink index
 * @param previous the state before
 * @param state    the state now
 * @param reason   why: the reason code and the attempt's reason that changed it
 */
public record EndpointStateChanged(String tenant, int sink, EndpointState previous, EndpointState state,
        String reason) {

    /**
     * Validates.
     *
     * @param tenant the tenant
     * @param sink the sink index
     * @param previous the state before
     * @param state the state now
     * @param reason why: the reason code and the attempt's reason that changed it
     */
    public EndpointStateChanged {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
    }
}
