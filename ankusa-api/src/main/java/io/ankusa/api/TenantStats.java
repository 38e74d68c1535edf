package io.ankusa.api;

/**
 * One tenant's backlog and dead letters, from its counters (point reads, no scan).
 *
 * @param pending   first-attempt rows waiting (kind 0 due rows)
 * @param scheduled retry rows waiting, including those whose backoff just expired (kind 1 due rows)
 * @param inflight  rows claimed by the dispatcher and not yet settled
 * @param dead      dead rows (deliveries that will not be retried unless revived); the same count
 *                  as {@link DeadStats#dead()}
 * @param bytes     sum of the envelope size of every delivery row the tenant holds (due, inflight,
 *                  dead, quarantined); a hook with n sinks counts n times
 * @param quarantined deliveries moved aside because their hook or delivery row does not decode
 *                    (kept, not due; see {@code Queue.quarantine})
 */
public record TenantStats(long pending, long scheduled, long inflight, long dead, long bytes, long quarantined) {

    /** A tenant with nothing. */
    public static final TenantStats EMPTY = new TenantStats(0, 0, 0, 0, 0, 0);

    /**
     * The counters with nothing quarantined.
     *
     * @param pending   first-attempt rows waiting
     * @param scheduled retry rows waiting
     * @param inflight  rows claimed and not yet settled
     * @param dead      dead rows
     * @param bytes     sum of the envelope size of every delivery row the tenant holds
     */
    public TenantStats(long pending, long scheduled, long inflight, long dead, long bytes) {
        this(pending, scheduled, inflight, dead, bytes, 0);
    }
}
