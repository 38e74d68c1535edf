package io.ankusa.api;

import java.time.Duration;
import java.util.Objects;

/**
 * How the queue treats its endpoints (a tenant's sink): when one is disabled for failing, what its
 * deliveries do while it is disabled, and the back-pressure the pipeline applies to each endpoint
 * (concurrency limit, circuit breaker). Keys {@code endpoint.*} of {@link QueueConfig#fromMap}.
 *
 * @param disableAfter     {@code endpoint.disable-after}: an endpoint whose attempts have all failed
 *                         for this long (from its first failure after its last success) is disabled
 *                         (default 5 days)
 * @param disabledPolicy   {@code endpoint.disabled-policy}: what a disabled endpoint's deliveries do
 *                         (default {@link DisabledPolicy#WAIT})
 * @param maxConcurrency   {@code endpoint.max-concurrency}: most attempts to one endpoint at once;
 *                         {@link #SINK_CONCURRENCY} (the default, {@code sink}) for the limit the
 *                         endpoint's sink declares ({@code Sink.endpointConcurrency()}: the HTTP
 *                         sink's per-host connection limit, 16 by default; none for an in-process sink)
 * @param breakerFailures  {@code endpoint.breaker-failures}: consecutive failed attempts that open an
 *                         endpoint's circuit breaker (default 5)
 * @param breakerInterval  {@code endpoint.breaker-interval}: how long an open breaker waits before it lets
 *                         one probe through (default 30 s)
 */
public record EndpointSettings(Duration disableAfter, DisabledPolicy disabledPolicy, int maxConcurrency,
        int breakerFailures, Duration breakerInterval) {

    /**
     * {@link #maxConcurrency()} that leaves the per-endpoint limit to each sink
     * ({@code Sink.endpointConcurrency()}); configuration value {@code sink}.
     */
    public static final int SINK_CONCURRENCY = 0;

    /**
     * The defaults: disable after 5 days, wait, the sink's own concurrency limit, breaker after 5 failures, probe every
     * 30 s.
     */
    public static final EndpointSettings DEFAULTS = new EndpointSettings(Duration.ofDays(5), DisabledPolicy.WAIT,
            SINK_CONCURRENCY, 5, Duration.ofSeconds(30));

    /** What a disabled endpoint's deliveries do. */
    public enum DisabledPolicy {
        /** They stay due, unclaimed, until the endpoint is enabled; then they go out on the next tick. */
        WAIT("wait"),
        /** They are dead-lettered without an attempt, reason {@code endpoint_disabled} (replayable). */
        DEAD_LETTER("dead-letter");

        private final String code;

        DisabledPolicy(String code) {
            this.code = code;
        }

        /**
         * The configuration value, {@code wait} or {@code dead-letter}.
         *
         * @return the code
         */
        public String code() {
            return code;
        }
    }

    /**
     * Checks the values.
     *
     * @param disableAfter    at least 1 ms
     * @param disabledPolicy  wait or dead-letter
     * @param maxConcurrency  at least 1, or {@link #SINK_CONCURRENCY}
     * @param breakerFailures at least 1
     * @param breakerInterval at least 1 ms
     */
    public EndpointSettings {
        Objects.requireNonNull(disableAfter, "disableAfter");
        Objects.requireNonNull(disabledPolicy, "disabledPolicy");
        Objects.requireNonNull(breakerInterval, "breakerInterval");
        if (disableAfter.toMillis() < 1 || breakerInterval.toMillis() < 1) {
            throw new IllegalArgumentException(
                    "endpoint.disable-after and endpoint.breaker-interval must be at least 1 ms");
        }
        if (maxConcurrency < SINK_CONCURRENCY || breakerFailures < 1) {
            throw new IllegalArgumentException("endpoint.max-concurrency must be at least 1 (or SINK_CONCURRENCY)"
                    + " and endpoint.breaker-failures at least 1");
        }
    }

    /**
     * These settings with {@code disableAfter}.
     *
     * @param disableAfter how long an endpoint may fail before it is disabled
     * @return the new settings
     */
    public EndpointSettings withDisableAfter(Duration disableAfter) {
        return new EndpointSettings(disableAfter, disabledPolicy, maxConcurrency, breakerFailures, breakerInterval);
    }

    /**
     * These settings with {@code disabledPolicy}.
     *
     * @param disabledPolicy what a disabled endpoint's deliveries do
     * @return the new settings
     */
    public EndpointSettings withDisabledPolicy(DisabledPolicy disabledPolicy) {
        return new EndpointSettings(disableAfter, disabledPolicy, maxConcurrency, breakerFailures, breakerInterval);
    }

    /**
     * These settings with {@code maxConcurrency}.
     *
     * @param maxConcurrency most attempts to one endpoint at once, or {@link #SINK_CONCURRENCY} for the sink's own
     *     limit
     * @return the new settings
     */
    public EndpointSettings withMaxConcurrency(int maxConcurrency) {
        return new EndpointSettings(disableAfter, disabledPolicy, maxConcurrency, breakerFailures, breakerInterval);
    }

    /**
     * These settings with the circuit breaker's {@code failures} and {@code interval}.
     *
     * @param failures consecutive failures that open the breaker
     * @param interval how long it stays open before one probe
     * @return the new settings
     */
    public EndpointSettings withBreaker(int failures, Duration interval) {
        return new EndpointSettings(disableAfter, disabledPolicy, maxConcurrency, failures, interval);
    }
}
