package io.ankusa.api.events;

/**
 * An endpoint's state: the endpoint of a delivery is its {@code (tenant, sink)}. The state is
 * stored (it survives a restart); see {@link io.ankusa.api.EndpointStatus}.
 */
public enum EndpointState {
    /** Taking deliveries (every endpoint starts so, and is so again once re-enabled). */
    ACTIVE,
    /**
     * Disabled ({@link io.ankusa.api.EndpointDisableReason gone, failing or by an operator}): its
     * deliveries wait, or are dead-lettered when the queue is configured so, until it is enabled.
     */
    DISABLED
}
