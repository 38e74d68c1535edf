package io.ankusa.tests.queue;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move by hand. Thread-safe. */
public final class MutableClock implements InstantSource {

    private final AtomicLong millis;

    /** Starting at {@code millis}. */
    public MutableClock(long millis) {
        this.millis = new AtomicLong(millis);
    }

    /** Moves the clock forward by {@code delta} milliseconds; returns the new time. */
    public long advance(long delta) {
        return millis.addAndGet(delta);
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }
}
