package io.ankusa.dispatch;

import io.ankusa.api.TenantPolicy;
import io.ankusa.queue.admission.TokenBucket;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The scheduler's state of one tenant: where it stands in the round-robin, the marker buckets the
 * active-index feed gave for it (the buckets its marker cleanup may delete), its deficit, its
 * in-flight count, its delivery-rate bucket and the policy they were built from.
 *
 * <p>Only the tick thread reads or writes it, except {@link #inflight}, which settles decrement
 * from the settling thread.
 */
final class TenantLane {

    /** Where the lane is. */
    enum State {
        /** No due work known: waits for the feed to bring a marker. */
        IDLE,
        /** In the round-robin ring. */
        READY,
        /** At its in-flight limit: waits for a settle. */
        AT_INFLIGHT_LIMIT,
        /** Out of delivery tokens (or its policy unreadable): waits until {@link #wakeNanos}. */
        WAITING_FOR_TOKENS
    }

    final long ord;
    /** Marker buckets (seconds) seen by the feed and not yet cleaned, ascending. */
    final TreeSet<Long> markers = new TreeSet<>();
    /** Claimed and not yet settled; decremented by settles on another thread. */
    final AtomicInteger inflight = new AtomicInteger();
    State state = State.IDLE;
    /** Rows the lane may still claim in its current turn. */
    long deficit;
    /** Whether the lane is inside a turn (its quantum already added). */
    boolean inTurn;
    /** Whether its policy could not be read at its last turn (it waits as for a token). */
    boolean policyUnreadable;
    /** When a {@link State#WAITING_FOR_TOKENS} lane may be asked again. */
    long wakeNanos;
    /** The tenant's name, once looked up. */
    String name;
    TenantPolicy policy;
    /** The policy cache's generation {@link #policy} was read at; -1 when never read. */
    long policyGeneration = -1;
    TokenBucket tokens;

    TenantLane(long ord) {
        this.ord = ord;
    }

    /** The tenant's in-flight room under its policy (0 when at or over the limit). */
    int inflightRoom() {
        return Math.max(0, policy.maxInflight() - inflight.get());
    }

    /** Whether nothing is lost by forgetting the lane: no claim out, no marker known, a full bucket. */
    boolean forgettable(long nowNanos) {
        return inflight.get() == 0 && markers.isEmpty() && state == State.IDLE
                && (tokens == null || tokens.rate().unlimited() || tokens.available(nowNanos) >= tokens.rate().burst());
    }
}
