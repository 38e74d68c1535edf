package io.ankusa.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The HTTP sink's settings, {@code ankusa.http.*} (used when the starter builds the
 * {@link io.ankusa.dispatch.http.HttpSink} over the application's
 * {@link io.ankusa.dispatch.http.EndpointResolver}, or over the queue's endpoint registry).
 * {@code ankusa.http.registry.enabled} is not bound here: the condition of
 * {@link AnkusaHttpSinkAutoConfiguration} reads it.
 */
@ConfigurationProperties(AnkusaHttpProperties.PREFIX)
public class AnkusaHttpProperties {

    /** The prefix of these properties. */
    static final String PREFIX = "ankusa.http";

    /**
     * Whether every request carries the W3C traceparent (and a non-empty tracestate) of the
     * attempt, not only requests to endpoints that ask for it: off by default, because the
     * header tells the receiver about the sender's traces.
     */
    private boolean traceparent;

    /** Created by Spring. */
    public AnkusaHttpProperties() {
    }

    /** {@return whether every request carries the trace headers} */
    public boolean isTraceparent() {
        return traceparent;
    }

    /** @param traceparent whether every request carries the trace headers */
    public void setTraceparent(boolean traceparent) {
        this.traceparent = traceparent;
    }
}
