package io.ankusa.dispatch.engine;

import io.ankusa.api.TenantPolicy;
import io.ankusa.queue.admission.TokenBucket;
import io.ankusa.queue.ledger.DueRow;
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
        WAITING_FOR_TOKENS,
        /**
         * Every due row it has is refused by the endpoint gate or waits behind its ordering key's
         * head: waits until a refusal may have ended ({@link #skipValid} turns false) or the feed
         * brings a new marker.
         */
        BLOCKED
    }

    /** How long rows left behind by the gate are skipped at most, so that a row committed late behind them is read. */
    static final long SKIP_REFRESH_NANOS = 60_000_000_000L;

    /** {@link #waitingSinceNanos} of a lane that is not waiting in the ring or for tokens. */
    static final long NOT_WAITING = Long.MIN_VALUE;

    final long ord;
    /** Marker buckets (seconds) seen by the feed and not yet cleaned, ascending. */
    final TreeSet<Long> markers = new TreeSet<>();
    /** Claimed and not yet settled; decremented by settles on another thread. */
    final AtomicInteger inflight = new AtomicInteger();
    State state = State.IDLE;
    /** Rows the lane may still claim in its current turn. */
    long deficit;
    /** Envelope bytes the lane may still claim in its current turn. */
    long byteDeficit;
    /** Whether the lane's current turn has claimed nothing yet (its first row goes whatever its size). */
    boolean turnStarted;
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
    /**
     * The last row read while the endpoint gate refused some: every due row of the lane up to it
     * was admitted (and claimed) or refused, so reads start after it while the refusals hold.
     */
    DueRow skipAfter;
    /** When the earliest time-bound refusal behind {@link #skipAfter} ends (monotonic nanos). */
    long skipWake;
    /** Whether a refusal behind {@link #skipAfter} waits for one of the lane's settles. */
    boolean skipOnSettle;
    /**
     * Whether the endpoint gate refused a row behind {@link #skipAfter} (otherwise every refusal
     * was a row waiting behind its ordering key's head).
     */
    boolean gateRefused;
    /** The gate's epoch when {@link #skipAfter} was set. */
    long skipEpoch;
    /** The second (of the queue clock) the lane was last {@link State#BLOCKED} in. */
    long blockedAtBucket;
    /** A settle of the lane happened since {@link #skipAfter} was set (written by the settling thread). */
    volatile boolean settledSinceSkip;
    /**
     * The due time of the tenant's earliest row as its last cleanup read it; {@link Long#MAX_VALUE} when none (or never
     * cleaned).
     */
    long firstDueAt = Long.MAX_VALUE;
    /** The earliest marker second the feed brought since the last cleanup; {@link Long#MAX_VALUE} when none. */
    long uncleanedBucket = Long.MAX_VALUE;
    /**
     * Since when (monotonic nanos) the lane has been waiting in the ring or for tokens without a
     * break: tokens it earned since then count at its next visit even past its burst (a late tick
     * must not cost it its rate); {@link #NOT_WAITING} when it left the ring otherwise.
     */
    long waitingSinceNanos = NOT_WAITING;
    /** The {@code earnSince} of the lane's last visit, for the take after the claim. */
    long earnSinceNanos;

    TenantLane(long ord) {
        this.ord = ord;
    }

    /** Whether the rows up to {@link #skipAfter} are still known to be refused. */
    boolean skipValid(long nowNanos, long epoch) {
        return skipAfter != null && epoch == skipEpoch && skipWake - nowNanos > 0
                && !(skipOnSettle && settledSinceSkip);
    }

    /** Forgets the skip: the next read starts from the lane's floor. */
    void clearSkip() {
        skipAfter = null;
    }

    /**
     * A visit reads from the lane's floor (no {@link #skipAfter}): what its refusals will say starts
     * afresh. Called once before the visit's first read, not per refusal: every refusal of the
     * visit must count, the first batch's too (resetting on each refusal kept only the last one's
     * reason, and a row refused until a settle then waited for a time instead).
     */
    void startSkip(long nowNanos, long epoch) {
        skipWake = nowNanos + SKIP_REFRESH_NANOS;
        skipOnSettle = false;
        gateRefused = false;
        skipEpoch = epoch;
        settledSinceSkip = false;
    }

    /**
     * The gate refused a row until {@code until} (see {@link EndpointGate#admit}); when
     * {@code orAnswer}, a refusal until a time may end earlier with a settle.
     */
    void refused(long until, boolean orAnswer) {
        if (until == EndpointGate.UNTIL_SETTLED || orAnswer) {
            skipOnSettle = true;
        }
        if (until != EndpointGate.UNTIL_SETTLED && until != EndpointGate.UNTIL_CHANGED && until - skipWake < 0) {
            skipWake = until;
        }
    }

    /**
     * The lane's earliest known due time: a marker second the feed brought since its last cleanup
     * when that is earlier than the cleanup's first row (unverified), else that row's due time.
     */
    OldestDue.Mark oldestMarkNow() {
        if (uncleanedBucket != Long.MAX_VALUE && uncleanedBucket * 1000 < firstDueAt) {
            return new OldestDue.Mark(uncleanedBucket * 1000, ord, false);
        }
        return firstDueAt == Long.MAX_VALUE ? null : new OldestDue.Mark(firstDueAt, ord, true);
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
