package io.ankusa.tests.queue;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A wall clock with a monotonic clock beside it, both moved by hand: {@link #pass} is time
 * passing (both move), {@link #step} is the wall clock being set (only the wall moves), as NTP
 * or an operator does. Hand {@link #nanos()} to the queue as its monotonic source. Thread-safe.
 */
public final class SteppingClock implements InstantSource {

    private final AtomicLong wall;
    private final AtomicLong monotonicMillis = new AtomicLong();

    /** A wall clock at {@code millis}. */
    public SteppingClock(long millis) {
        this.wall = new AtomicLong(millis);
    }

    /** Lets {@code millis} pass: both clocks move forward. */
    public void pass(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("time does not pass backwards: " + millis);
        }
        monotonicMillis.addAndGet(millis);
        wall.addAndGet(millis);
    }

    /** Sets the wall clock {@code millis} forward (negative: back); no time passes. */
    public void step(long millis) {
        wall.addAndGet(millis);
    }

    /** The monotonic clock, in nanoseconds. */
    public long nanos() {
        return monotonicMillis.get() * 1_000_000L;
    }

    @Override
    public long millis() {
        return wall.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(wall.get());
    }
}
