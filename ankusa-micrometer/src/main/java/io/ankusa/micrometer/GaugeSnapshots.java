package io.ankusa.micrometer;

import io.ankusa.dispatch.QueueMonitor;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.TenantPending;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One gauge snapshot shared by every gauge read, measured again when older than the refresh
 * interval; each new snapshot's top tenants go to the followers.
 */
final class GaugeSnapshots {

    private final QueueMonitor monitor;
    private final long refreshNanos;
    private final int topTenants;
    private final List<Consumer<List<TenantPending>>> followers = new CopyOnWriteArrayList<>();
    private Gauges last;
    private long measuredNanos;

    GaugeSnapshots(QueueMonitor monitor, Duration refresh, int topTenants) {
        this.monitor = monitor;
        this.refreshNanos = refresh.toNanos();
        this.topTenants = topTenants;
    }

    void follow(Consumer<List<TenantPending>> follower) {
        followers.add(follower);
    }

    /** The snapshot, measured now if the last one is too old; {@code null} if measuring fails (the queue is closed). */
    Gauges current() {
        synchronized (this) {
            if (last != null && System.nanoTime() - measuredNanos < refreshNanos) {
                return last;
            }
        }
        return measure();
    }

    /** Measures a snapshot now; {@code null} if measuring fails (the queue is closed). */
    Gauges measure() {
        Gauges measured;
        synchronized (this) {
            long now = System.nanoTime();
            try {
                measured = monitor.gauges();
            } catch (RuntimeException e) {
                return null;
            }
            last = measured;
            measuredNanos = now;
        }
        List<TenantPending> top = measured.topTenantsByPending();
        List<TenantPending> kept = top.subList(0, Math.min(topTenants, top.size()));
        followers.forEach(f -> f.accept(kept));
        return measured;
    }
}
