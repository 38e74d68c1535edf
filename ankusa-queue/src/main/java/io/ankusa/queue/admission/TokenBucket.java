package io.ankusa.queue.admission;

import io.ankusa.api.Rate;
import java.util.Objects;

/**
 * A token bucket over a caller's monotonic nanosecond clock: {@link Rate#perSecond()} tokens a
 * second, at most {@link Rate#burst()} held, one taken per unit of work. It starts full.
 *
 * <p>Not thread-safe: a bucket belongs to the one thread that decides with it (the ingest
 * writer's per-tenant ingest buckets, the scheduler's per-tenant delivery buckets). Time is
 * passed in rather than read, so a caller uses {@link System#nanoTime()} (immune to wall-clock
 * steps) and a test passes its own.
 */
public final class TokenBucket {

    private static final double NANOS_PER_SECOND = 1e9;

    /** Times are kept as doubles relative to this, so they stay exact for years of nanoseconds. */
    private final long origin;
    private Rate rate;
    /** Nanoseconds between tokens. */
    private double interval;
    /**
     * The theoretical arrival time (GCRA): when the bucket would be full again if nothing more
     * were taken. Integer-free arithmetic on one value, so admitted work never drifts from the rate.
     */
    private double fullAt;

    /** A full bucket of {@code rate} at {@code nowNanos}. */
    public TokenBucket(Rate rate, long nowNanos) {
        this.origin = nowNanos;
        this.rate = Objects.requireNonNull(rate, "rate");
        this.interval = NANOS_PER_SECOND / rate.perSecond();
        this.fullAt = 0;
    }

    /** Takes {@code count} tokens if the bucket holds them; otherwise takes none. */
    public boolean tryTake(long count, long nowNanos) {
        return tryTake(count, nowNanos, nowNanos);
    }

    /**
     * {@link #tryTake(long, long)} for a holder that has been waiting to use tokens since
     * {@code earnSinceNanos} (at most {@code nowNanos}) and is served late: the tokens earned since
     * then count even past the burst, as they would have been taken had it been served on time.
     * With {@code earnSinceNanos == nowNanos} this is {@link #tryTake(long, long)}.
     */
    public boolean tryTake(long count, long nowNanos, long earnSinceNanos) {
        if (rate.unlimited()) {
            return true;
        }
        double now = nowNanos - origin;
        double next = Math.max(fullAt, Math.min(now, earnSinceNanos - origin)) + count * interval;
        if (next - now <= rate.burst() * interval) {
            fullAt = next;
            return true;
        }
        return false;
    }

    /** How long until {@code count} tokens are held (0 when they are now); never takes any. */
    public long nanosUntil(long count, long nowNanos) {
        if (rate.unlimited()) {
            return 0;
        }
        double now = nowNanos - origin;
        double wait = Math.max(fullAt, now) + Math.min(count, rate.burst()) * interval - now - rate.burst() * interval;
        return wait <= 0 ? 0 : (long) Math.ceil(wait);
    }

    /**
     * Tokens held at {@code nowNanos} ({@link Long#MAX_VALUE} when unlimited); never takes any. A
     * caller that may take up to this many does so with one {@link #tryTake}.
     */
    public long available(long nowNanos) {
        return available(nowNanos, nowNanos);
    }

    /**
     * Tokens held at {@code nowNanos} by a holder waiting to use them since {@code earnSinceNanos}
     * (see {@link #tryTake(long, long, long)}): the burst plus what was earned since then past it.
     */
    public long available(long nowNanos, long earnSinceNanos) {
        if (rate.unlimited()) {
            return Long.MAX_VALUE;
        }
        double now = nowNanos - origin;
        double held = rate.burst() - (Math.max(fullAt, Math.min(now, earnSinceNanos - origin)) - now) / interval;
        return held <= 0 ? 0 : (long) Math.floor(held + 1e-9);
    }

    /** The bucket's rate. */
    public Rate rate() {
        return rate;
    }

    /**
     * Changes the rate (a policy changed); tokens already earned are kept up to the new burst, so
     * a change never grants a fresh burst. From an unlimited rate the bucket starts full.
     */
    public void rate(Rate newRate, long nowNanos) {
        Objects.requireNonNull(newRate, "newRate");
        if (newRate.equals(rate)) {
            return;
        }
        double now = nowNanos - origin;
        double held = rate.unlimited() ? newRate.burst() : rate.burst() - (Math.max(fullAt, now) - now) / interval;
        rate = newRate;
        interval = NANOS_PER_SECOND / newRate.perSecond();
        fullAt = newRate.unlimited() ? now : now + (newRate.burst() - Math.min(held, newRate.burst())) * interval;
    }
}
