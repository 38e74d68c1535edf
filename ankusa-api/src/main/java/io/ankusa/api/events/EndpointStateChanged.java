package io.ankusa.api.events;

import java.util.Objects;

/**
 * An endpoint's observed state changed: published the first time an attempt of {@code (tenant,
 * sink)} ends {@link AttemptOutcome#ENDPOINT_GONE} or {@link AttemptOutcome#ENDPOINT_DISABLED},
 * and again ({@link EndpointState#ACTIVE}) when a later attempt of the same endpoint is delivered.
 * Repeats of the same state publish nothing.
 *
 * @param tenant   the tenant
 * @param sink     the sink index
 * @param previous the state before
 * @param state    the state now
 * @param reason   the attempt's reason that changed it (empty for {@code ACTIVE})
 */
public record EndpointStateChanged(String tenant, int sink, EndpointState previous, EndpointState state, String reason) {

    /**
     * Validates.
     *
     * @param tenant the tenant
     * @param sink the sink index
     * @param previous the state before
     * @param state the state now
     * @param reason the attempt's reason that changed it (empty for {@code ACTIVE})
     */
    public EndpointStateChanged {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
    }
}
