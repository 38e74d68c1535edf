package io.ankusa.api.events;

/** How a sink attempt ended, as the sink answered (before the retry policy's decision). */
public enum AttemptOutcome {
    /** The sink took the hook. */
    DELIVERED,
    /** The attempt failed and may be retried (includes sink timeouts and broken sink contracts). */
    RETRY,
    /** The attempt failed for good. */
    DEAD,
    /** The endpoint said it is gone ({@code 410}). */
    ENDPOINT_GONE,
    /** The endpoint is disabled by the application; nothing was sent. */
    ENDPOINT_DISABLED
}
