package io.ankusa.dispatch.report;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a pipeline knows of its own health: whether it keeps delivering what it should deliver now.
 * Read with {@link io.ankusa.dispatch.Pipeline#dispatchHealth()}; judged by
 * {@link io.ankusa.dispatch.NodeHealth}.
 *
 * <p>The deliverable age leaves out the rows the scheduler holds back by design: a tenant at its
 * in-flight limit or out of delivery tokens, or rows whose endpoint is disabled, paused
 * ({@code Retry-After}), behind an open breaker or at its concurrency limit. Those are reported in
 * {@link #held()}, by reason; one tenant's broken endpoint or rate limit shows there and not in the
 * deliverable age. The age is kept from the scheduler's own knowledge (its per-tenant marks and hold
 * reasons), so a measurement costs no scan: at most a few seeks for marks the scheduler has not
 * verified, and one counter read per held tenant counted ({@link HeldRows#ROWS_COUNTED} per reason).
 *
 * @param measuredAt           when it was measured (the queue clock)
 * @param ticking              whether the pipeline's own tick loop runs (started, not closed, not failed, its
 *                             claim gate open: {@code Pipeline.Builder.claimGate});
 *                             false for a pipeline ticked by its caller
 * @param sinceLastTick        since the last tick ended, on the scheduler's monotonic clock; empty before the
 *                             first
 * @param oldestDeliverableAge how long the oldest row the pipeline should be delivering now has been due: due,
 *                             of a tenant not held back, on an endpoint that is not refusing; empty when none is
 *                             known. For a tenant whose head rows wait on a refusing endpoint while its other
 *                             rows go, the due time of the last row it read stands in for its next one (an
 *                             upper bound of that row's age)
 * @param oldestDueAge         how long the oldest due row of any kind has been due (the gauges' figure); empty
 *                             when nothing is due
 * @param held                 the rows held back, one entry per reason with at least one tenant
 * @param sinkSilentFor        how long the sink has given no outcome while attempts ran past the pipeline's sink
 *                             deadline: since its last outcome (or the pipeline's start) when the last attempt
 *                             to end ended at the deadline; empty otherwise. An endpoint that does not answer is
 *                             an outcome of an HTTP sink (its own timeout), not a silence; a silent sink is
 *                             code that stopped completing its stages
 */
public record DispatchHealth(Instant measuredAt, boolean ticking, Optional<Duration> sinceLastTick,
        Optional<Duration> oldestDeliverableAge, Optional<Duration> oldestDueAge, List<HeldRows> held,
        Optional<Duration> sinkSilentFor) {

    /**
     * Validates and copies the list.
     *
     * @param measuredAt when it was measured (the queue clock)
     * @param ticking whether the pipeline's own tick loop runs
     * @param sinceLastTick since the last tick ended; empty before the first
     * @param oldestDeliverableAge how long the oldest row the pipeline should be delivering now has been due
     * @param oldestDueAge how long the oldest due row of any kind has been due
     * @param held the rows held back, one entry per reason with at least one tenant
     * @param sinkSilentFor how long the sink has given no outcome while attempts ran past the sink deadline
     */
    public DispatchHealth {
        Objects.requireNonNull(measuredAt, "measuredAt");
        Objects.requireNonNull(sinceLastTick, "sinceLastTick");
        Objects.requireNonNull(oldestDeliverableAge, "oldestDeliverableAge");
        Objects.requireNonNull(oldestDueAge, "oldestDueAge");
        Objects.requireNonNull(sinkSilentFor, "sinkSilentFor");
        held = List.copyOf(held);
    }

    /**
     * The held rows of one reason.
     *
     * @param hold the reason
     * @return its entry, or empty when no tenant is held for it
     */
    public Optional<HeldRows> held(TenantDispatch.Hold hold) {
        return held.stream().filter(h -> h.hold() == hold).findFirst();
    }
}
