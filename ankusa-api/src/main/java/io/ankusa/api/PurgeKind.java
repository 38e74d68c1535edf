package io.ankusa.api;

/**
 * What {@code purgeTenant} removes. Inflight deliveries are never purged: they belong to the dispatcher until settled.
 */
public enum PurgeKind {
    /** Every due delivery: first attempts waiting (pending) and retries waiting out a backoff (scheduled). */
    PENDING,
    /** Every dead letter. */
    DEAD
}
