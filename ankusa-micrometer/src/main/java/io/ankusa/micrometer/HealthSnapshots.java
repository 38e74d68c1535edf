package io.ankusa.micrometer;

import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.DispatchHealth;
import io.ankusa.dispatch.report.TroubledTenants;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One snapshot of a pipeline's health and troubled tenants shared by every health meter, measured
 * again when older than the refresh interval; each new snapshot's troubled tenants go to the
 * followers (the per-tenant series).
 */
final class HealthSnapshots {

    /**
     * One measurement.
     *
     * @param health   the pipeline's health facts
     * @param troubled its top tenants by oldest due age and by failure rate
     */
    record Snapshot(DispatchHealth health, TroubledTenants troubled) {
    }

    private final Pipeline pipeline;
    private final long refreshNanos;
    private final int topTenants;
    private final List<Consumer<TroubledTenants>> followers = new CopyOnWriteArrayList<>();
    private Snapshot last;
    private long measuredNanos;

    HealthSnapshots(Pipeline pipeline, Duration refresh, int topTenants) {
        this.pipeline = pipeline;
        this.refreshNanos = refresh.toNanos();
        this.topTenants = topTenants;
    }

    void follow(Consumer<TroubledTenants> follower) {
        followers.add(follower);
    }

    /** The snapshot, measured now if the last one is too old; {@code null} if measuring fails (closed). */
    Snapshot current() {
        synchronized (this) {
            if (last != null && System.nanoTime() - measuredNanos < refreshNanos) {
                return last;
            }
        }
        return measure();
    }

    /** Measures a snapshot now; {@code null} if measuring fails (the pipeline or the queue is closed). */
    Snapshot measure() {
        Snapshot measured;
        synchronized (this) {
            long now = System.nanoTime();
            try {
                measured = new Snapshot(pipeline.dispatchHealth(), pipeline.troubledTenants(topTenants));
            } catch (RuntimeException e) {
                return null;
            }
            last = measured;
            measuredNanos = now;
        }
        followers.forEach(f -> f.accept(measured.troubled()));
        return measured;
    }
}
