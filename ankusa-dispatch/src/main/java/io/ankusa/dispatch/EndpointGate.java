package io.ankusa.dispatch;

import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.InflightRow;

/**
 * The endpoint half of the admission step: asked by the scheduler for each due row it is about to
 * claim, after the tenant's own limits (in-flight, delivery rate) admitted the tenant. A row it
 * refuses stays due, untouched, and is asked about again on the tenant's next turn; the rows after
 * it are still asked, so one paused endpoint does not hold up the tenant's others.
 *
 * <p>This is the seam for endpoint health (issue 15: paused by {@code Retry-After}, per-endpoint
 * concurrency, circuit breaker): an implementation keys its state by {@code (row.ord(), row.sink())}
 * or by the endpoint the sink index resolves to, counts {@link #claimed} against {@link #settled},
 * and refuses while paused or full. {@link #OPEN} admits everything and is what the pipeline uses
 * today. Called on the tick thread ({@link #admits}, {@link #claimed}) and on the settling thread
 * ({@link #settled}); implementations are thread-safe.
 */
interface EndpointGate {

    /** Admits every row; counts nothing. */
    EndpointGate OPEN = new EndpointGate() {
    };

    /**
     * Whether {@code row} may be claimed now.
     *
     * @param row      a due row of a tenant the tenant limits admitted
     * @param nowNanos the scheduler's monotonic clock
     * @return {@code false} to leave it due for now
     */
    default boolean admits(DueRow row, long nowNanos) {
        return true;
    }

    /** {@code row} was claimed and is in flight. */
    default void claimed(InflightRow row) {
    }

    /** {@code row} was settled (delivered, retried, dead or dropped). */
    default void settled(InflightRow row) {
    }
}
