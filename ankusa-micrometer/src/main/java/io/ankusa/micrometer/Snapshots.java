package io.ankusa.micrometer;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One snapshot shared by every meter that reads it, measured again when older than the refresh
 * interval; each new snapshot's per-tenant part goes to the followers (the per-tenant series).
 *
 * @param <T> what a measurement returns
 * @param <F> the part of it the followers get
 */
final class Snapshots<T, F> {

    private final Supplier<T> measurement;
    private final Function<T, F> forFollowers;
    private final long refreshNanos;
    private final List<Consumer<F>> followers = new CopyOnWriteArrayList<>();
    private T last;
    private long measuredNanos;

    /**
     * @param measurement  measures a snapshot (a {@link RuntimeException}: the source is closed)
     * @param forFollowers the part of a snapshot the followers get
     * @param refresh      how old a snapshot may be before a read measures again
     */
    Snapshots(Supplier<T> measurement, Function<T, F> forFollowers, Duration refresh) {
        this.measurement = Objects.requireNonNull(measurement, "measurement");
        this.forFollowers = Objects.requireNonNull(forFollowers, "forFollowers");
        this.refreshNanos = refresh.toNanos();
    }

    void follow(Consumer<F> follower) {
        followers.add(follower);
    }

    /** The snapshot, measured now if the last one is too old; {@code null} if measuring fails (closed source). */
    T current() {
        synchronized (this) {
            if (last != null && System.nanoTime() - measuredNanos < refreshNanos) {
                return last;
            }
        }
        return measure();
    }

    /** Measures a snapshot now; {@code null} if measuring fails (the source is closed). */
    T measure() {
        T measured;
        synchronized (this) {
            long now = System.nanoTime();
            try {
                measured = measurement.get();
            } catch (RuntimeException e) {
                return null;
            }
            last = measured;
            measuredNanos = now;
        }
        F part = forFollowers.apply(measured);
        followers.forEach(f -> f.accept(part));
        return measured;
    }
}
