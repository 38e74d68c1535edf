package io.ankusa.api.events;

/**
 * An endpoint's state as the pipeline observed it: the endpoint of a delivery is its
 * {@code (tenant, sink)}. Not persisted: a restarted pipeline starts every endpoint
 * {@link #ACTIVE}.
 */
public enum EndpointState {
    /** Taking deliveries (the state before anything else was seen, and after a delivery succeeded again). */
    ACTIVE,
    /** The receiver answered {@code 410 Gone}; its deliveries are dead-lettered. */
    GONE,
    /** The application disabled it; its deliveries are dead-lettered without an attempt. */
    DISABLED
}
