package io.ankusa.queue.ledger;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The queue's "now": the one clock every due time, dead-letter time, retry time, replay bound,
 * backlog age and audit time of a queue is stamped with or compared to. It never goes backwards,
 * also across a restart, and it tells time that passed from time the wall clock jumped.
 *
 * <p>It reads two sources: the wall clock (the configured {@link InstantSource}) and a monotonic
 * nanosecond clock ({@link System#nanoTime()}). Each reading first projects the last "now" forward
 * by the monotonic time elapsed since, then:
 * <ul>
 * <li><b>The wall is at or past the projection</b> (the usual case): "now" is the wall. A wall more
 *     than {@value #STEP_MILLIS} ms past the projection stepped forward; the jump is remembered
 *     ({@value #STEPS_KEPT} at most) so that {@link #waitedSince} leaves it out.</li>
 * <li><b>The wall is behind the projection</b> (it stepped back): "now" is the projection, which
 *     advances at half the monotonic rate while it is ahead of the wall. Nothing that was due stops
 *     being due (time never goes back), a delay still ends (at worst it takes twice as long), and
 *     the wall catches up with the queue after twice the step: a 1 h step back is absorbed in 2 h,
 *     after which "now" is the wall again.</li>
 * </ul>
 * At open, the clock starts from the larger of the wall and {@code floor}, the last "now" the
 * queue persisted ({@code m:clock}, written by the ingest writer in every batch and by
 * housekeeping when the queue is idle), so a restart after a backward step does not step back
 * either.
 *
 * <p>Limits: the remembered forward steps are in memory, so right after a restart a row that was
 * due before a forward step reads the step in its age; a wall clock that was once far ahead (a
 * host set to next year for a minute) leaves the queue ahead until the wall catches up, at half
 * speed, because going back would hold back every row stamped meanwhile. Under a clock the
 * application passes without a monotonic source, the monotonic time is read from that clock, so a
 * forward move of it is time passing, never a step.
 *
 * <p>Thread-safe: readings are serialised (one short critical section per reading).
 */
public final class QueueClock implements InstantSource {

    /** How far the wall may run ahead of the monotonic projection in one reading before it counts as a step. */
    public static final long STEP_MILLIS = 1_000;
    /** Forward steps remembered for {@link #waitedSince}. */
    public static final int STEPS_KEPT = 64;

    private static final long NANOS_PER_MILLI = 1_000_000L;

    /** A forward jump of the wall from queue time {@code from} to {@code to}: time that did not pass. */
    private record Step(long from, long to) {
    }

    private final InstantSource wall;
    private final LongSupplier nanos;
    /** Reads the wall as it is ({@link #wallOnly}). */
    private final boolean wallOnly;
    private final Deque<Step> steps = new ArrayDeque<>();
    private long last;
    private long lastNanos;
    /** How far {@link #last} was ahead of the wall at the last reading, ms (0 when it was not). */
    private long ahead;
    /** Monotonic nanoseconds not yet turned into queue milliseconds. */
    private long carry;

    private QueueClock(InstantSource wall, LongSupplier nanos, long floor, boolean wallOnly) {
        this.wall = Objects.requireNonNull(wall, "wall");
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        this.wallOnly = wallOnly;
        this.lastNanos = nanos.getAsLong();
        long w = wall.millis();
        this.last = Math.max(w, floor);
        this.ahead = last - w;
    }

    /**
     * A queue clock over {@code wall} and the monotonic clock {@code nanos}, starting at the larger
     * of the wall and {@code floor}.
     *
     * @param wall  the wall clock
     * @param nanos a monotonic nanosecond clock
     * @param floor the last "now" the queue persisted ({@link Long#MIN_VALUE} for none)
     * @return the clock
     */
    public static QueueClock of(InstantSource wall, LongSupplier nanos, long floor) {
        return new QueueClock(wall, nanos, floor, false);
    }

    /**
     * A clock that reads {@code wall} as it is, back steps included, and leaves nothing out of
     * waits: for tests that replay a race in which a writer stamps a time it read earlier (a hand
     * moved back to stamp the past). {@code Queue.open} never uses it.
     *
     * @param wall the wall clock
     * @return the clock
     */
    public static QueueClock wallOnly(InstantSource wall) {
        return new QueueClock(wall, monotonicOf(wall), Long.MIN_VALUE, true);
    }

    /**
     * A queue clock over {@code wall} whose monotonic source is {@link System#nanoTime()} when
     * {@code wall} is the system clock and {@code wall} itself otherwise (a test's clock, moved by
     * hand: a forward move is time passing).
     *
     * @param wall  the wall clock
     * @param floor the last "now" the queue persisted ({@link Long#MIN_VALUE} for none)
     * @return the clock
     */
    public static QueueClock over(InstantSource wall, long floor) {
        return of(wall, monotonicOf(wall), floor);
    }

    /**
     * {@link System#nanoTime()} for the system clock; {@code wall} in nanoseconds for any other.
     *
     * @param wall the wall clock
     * @return a nanosecond clock
     */
    public static LongSupplier monotonicOf(InstantSource wall) {
        if (wall.equals(InstantSource.system())) {
            return System::nanoTime;
        }
        return () -> {
            Instant now = wall.instant();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        };
    }

    @Override
    public synchronized long millis() {
        long w = wall.millis();
        if (wallOnly) {
            return w;
        }
        long n = nanos.getAsLong();
        long elapsed = Math.max(0, n - lastNanos);
        lastNanos = n;
        // Ahead of the wall (it stepped back): half speed until the wall, at full speed, catches up,
        // which takes twice the time it is ahead; full speed after that, within the same interval.
        long slow = Math.min(elapsed, 2 * Math.min(ahead, Long.MAX_VALUE / (4 * NANOS_PER_MILLI)) * NANOS_PER_MILLI);
        carry += slow / 2 + (elapsed - slow);
        long projected = last + carry / NANOS_PER_MILLI;
        carry %= NANOS_PER_MILLI;
        if (w >= projected) {
            if (w - projected > STEP_MILLIS) {
                if (steps.size() == STEPS_KEPT) {
                    steps.removeFirst();
                }
                steps.addLast(new Step(projected, w));
            }
            carry = 0;
            last = w;
        } else {
            last = projected;
        }
        ahead = last - w;
        return last;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    /**
     * How long the queue has waited since its time reached {@code at}, as of its time
     * {@code now}: {@code now - at} less the forward steps of the wall in between (a row due at
     * {@code at} that a step jumped over has waited since the step). Never negative. This is the
     * backlog age: a 1-day forward step does not read as a 1-day wait.
     *
     * @param at  a queue time (a due time)
     * @param now the queue's time, from {@link #millis()}
     * @return milliseconds waited
     */
    public synchronized long waitedSince(long at, long now) {
        long waited = now - at;
        for (Step step : steps) {
            if (step.to() > at && step.from() < now) {
                waited -= Math.min(step.to(), now) - Math.max(step.from(), at);
            }
        }
        return Math.max(0, waited);
    }

    /**
     * The clock's monotonic source now, in nanoseconds: for rates and intervals (token buckets),
     * which a wall-clock step must neither grant nor withhold.
     *
     * @return nanoseconds from an arbitrary origin
     */
    public long monotonicNanos() {
        return nanos.getAsLong();
    }

    /**
     * How far the queue's last "now" is ahead of the wall clock now (0 when it is not): the part
     * of a backward step not yet absorbed.
     *
     * @return milliseconds ahead
     */
    public synchronized long aheadOfWall() {
        return Math.max(0, last - wall.millis());
    }
}
