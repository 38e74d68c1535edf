package io.ankusa.kafka;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A node's self-fence: whether its partitions' pipelines may claim deliveries now. The poll loop
 * {@linkplain #renew() renews} it after each completed poll; once the bound has passed since then
 * the node may have lost its partitions without being told (the group gives them away after
 * {@code session.timeout.ms}, and the bound is below that), so the {@linkplain #open() gate}
 * closes at once, read from the monotonic clock by every tick, whatever the poll loop is doing.
 * {@link #check()}, from a watchdog thread or from the poll loop, turns an expired bound into
 * the fenced state, which only {@link #lift()} ends: after a completed poll, once the node
 * has confirmed that it still owns its partitions.
 *
 * <p>Thread-safe: the gate is read by the pipelines' tick threads, {@link #check()} by the
 * watchdog, the rest by the poll loop.
 */
final class Fence {

    /** What {@link #check()} returns when it did not fence. */
    static final long NOT_FENCED = -1;

    private final long boundNanos;
    private final LongSupplier nanoTime;
    private volatile long renewed;
    private volatile boolean fenced;

    /**
     * A fence renewed now.
     *
     * @param bound    how long after the last completed poll dispatch stops; positive
     * @param nanoTime the monotonic clock ({@code System::nanoTime} outside tests)
     */
    Fence(Duration bound, LongSupplier nanoTime) {
        if (bound.isNegative() || bound.isZero()) {
            throw new IllegalArgumentException("fencing bound must be positive: " + bound);
        }
        this.boundNanos = bound.toNanos();
        this.nanoTime = nanoTime;
        this.renewed = nanoTime.getAsLong();
    }

    /** The claim gate: true while not fenced and the bound has not passed since the last renewal. */
    boolean open() {
        return !fenced && nanoTime.getAsLong() - renewed < boundNanos;
    }

    /** Whether dispatch is held: fenced, or the bound passed and no check has seen it yet. */
    boolean fenced() {
        return !open();
    }

    /** Since the last renewal (the last completed poll). */
    Duration sinceRenewed() {
        return Duration.ofNanos(Math.max(0, nanoTime.getAsLong() - renewed));
    }

    /**
     * Fences when the bound has passed since the last renewal and the fence is not fenced yet.
     *
     * @return the nanos since the last renewal when this call fenced, else {@link #NOT_FENCED}
     */
    synchronized long check() {
        long since = nanoTime.getAsLong() - renewed;
        if (fenced || since < boundNanos) {
            return NOT_FENCED;
        }
        fenced = true;
        return since;
    }

    /** A poll completed: the bound counts from now. Does not lift a fence (see {@link #lift()}). */
    synchronized void renew() {
        renewed = nanoTime.getAsLong();
    }

    /**
     * Ends the fenced state: the node completed a poll and confirmed it owns its partitions.
     *
     * @return whether it was fenced
     */
    synchronized boolean lift() {
        boolean was = fenced;
        fenced = false;
        return was;
    }

    /** Whether the fenced state holds (a {@link #check()} fenced and no {@link #lift()} followed). */
    boolean held() {
        return fenced;
    }
}
