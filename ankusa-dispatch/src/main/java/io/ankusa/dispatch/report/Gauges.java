package io.ankusa.dispatch.report;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of the queue's gauges. None of them folds a family: the six totals are the node
 * aggregate counters (one multi-get), the backlog age comes from the first active marker, the
 * tenant count from one meta read, and the top tenants from the active index plus one counter
 * read per candidate. {@code docs/delivery.md} ("Gauges") defines each.
 *
 * @param measuredAt             when it was measured
 * @param pending                first-attempt rows waiting (due rows of kind 0), the node total
 * @param scheduled              retry rows waiting, including those whose backoff just ran out (kind 1)
 * @param inflight               rows claimed and not yet settled
 * @param dead                   dead letters
 * @param bytes                  envelope bytes of every delivery row that exists (due, inflight, dead)
 * @param archivePending         archive obligations not yet settled
 * @param oldestDueAge           how long the oldest due row has been due, exact to the second; zero if
 *                               it is not yet due, empty when nothing is due
 * @param tenants                tenants ever seen (ordinals allocated)
 * @param dispatchActiveTenants  distinct tenants the last dispatch tick visited
 * @param topTenantsByPending    up to 100 tenants with the most pending rows, most first, among the
 *                               first 10 000 tenants in active-index order (those waiting longest)
 */
public record Gauges(Instant measuredAt, long pending, long scheduled, long inflight, long dead, long bytes,
        long archivePending, Optional<Duration> oldestDueAge, long tenants, int dispatchActiveTenants,
        List<TenantPending> topTenantsByPending) {

    /**
     * Validates and copies the list.
     *
     * @param measuredAt when it was measured
     * @param pending first-attempt rows waiting (due rows of kind 0), the node total
     * @param scheduled retry rows waiting, including those whose backoff just ran out (kind 1)
     * @param inflight rows claimed and not yet settled
     * @param dead dead letters
     * @param bytes envelope bytes of every delivery row that exists (due, inflight, dead)
     * @param archivePending archive obligations not yet settled
     * @param oldestDueAge how long the oldest due row has been due, exact to the second; zero if it is not yet due,
     *     empty when nothing is due
     * @param tenants tenants ever seen (ordinals allocated)
     * @param dispatchActiveTenants distinct tenants the last dispatch tick visited
     * @param topTenantsByPending up to 100 tenants with the most pending rows, most first, among the first 10 000
     *     tenants in active-index order (those waiting longest)
     */
    public Gauges {
        Objects.requireNonNull(measuredAt, "measuredAt");
        Objects.requireNonNull(oldestDueAge, "oldestDueAge");
        topTenantsByPending = List.copyOf(topTenantsByPending);
    }
}
