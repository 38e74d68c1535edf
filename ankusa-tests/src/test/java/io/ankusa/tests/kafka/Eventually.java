package io.ankusa.tests.kafka;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition that other threads or processes bring about (a node consuming a topic):
 * checks it every 20 ms up to a generous deadline, and fails with {@code what} when it never holds.
 * The deadline bounds a hang; it is not a timing assumption.
 */
final class Eventually {

    private Eventually() {
    }

    static void until(Duration deadline, Supplier<String> what, BooleanSupplier condition) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + deadline + ": " + what.get());
            }
            LockSupport.parkNanos(20_000_000L);
        }
    }
}
