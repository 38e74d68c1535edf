package io.ankusa.dispatch;

import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.engine.GaugeReader;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.queue.Queue;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads a queue's {@link Gauges} without a {@link Pipeline}: for a read-only monitor, an
 * operator's process or a metrics bridge on a node whose pipeline runs elsewhere. Same reader as
 * {@link Pipeline#gauges()}, so the same costs (no family is folded); only
 * {@link Gauges#dispatchActiveTenants()} is 0, as there is no dispatch tick to report.
 *
 * <p>Thread-safe; holds nothing but the queue, which it never closes.
 */
public final class QueueMonitor {

    /** How often {@link #drained()} reads the node counters while it waits. */
    static final long DRAIN_CHECK_MS = 20;

    private final GaugeReader reader;
    private final Queue queue;

    private QueueMonitor(Queue queue) {
        this.queue = queue;
        this.reader = GaugeReader.forMonitor(queue);
    }

    /**
     * A monitor of {@code queue}, measuring "now" with the queue's own clock.
     *
     * @param queue an open queue
     * @return the monitor
     */
    public static QueueMonitor of(Queue queue) {
        return new QueueMonitor(Objects.requireNonNull(queue, "queue"));
    }

    /**
     * Measures the gauges now, on the calling thread.
     *
     * @return the gauges as of now
     */
    public Gauges gauges() {
        return reader.measure();
    }

    /**
     * Completes once the queue has nothing left to deliver: no pending, scheduled or inflight row
     * in the node counters (dead letters do not count; a retry scheduled for later does). Hooks
     * whose ingest future has not completed yet are not counted: wait for their receipts first.
     * The counters are read (one multi-get) every 20 ms until then, off the
     * caller's thread; the future fails if a read fails (the queue closed). Cancelling it stops
     * the checks.
     *
     * @return a future of the totals that showed the queue drained
     */
    public CompletableFuture<QueueStats> drained() {
        CompletableFuture<QueueStats> done = new CompletableFuture<>();
        check(done);
        return done;
    }

    /**
     * Waits up to {@code timeout} for {@link #drained()}.
     *
     * @param timeout how long to wait
     * @return whether the queue drained in time
     * @throws InterruptedException when interrupted while waiting
     * @throws io.ankusa.api.AnkusaException (or another runtime exception) when the counters cannot be read
     */
    public boolean awaitDrained(Duration timeout) throws InterruptedException {
        CompletableFuture<QueueStats> done = drained();
        try {
            done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            done.cancel(false);
        }
    }

    private void check(CompletableFuture<QueueStats> done) {
        if (done.isDone()) {
            return;
        }
        QueueStats totals;
        try {
            totals = queue.stats();
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
            return;
        }
        if (totals.pending() == 0 && totals.scheduled() == 0 && totals.inflight() == 0) {
            done.complete(totals);
        } else {
            CompletableFuture.delayedExecutor(DRAIN_CHECK_MS, TimeUnit.MILLISECONDS).execute(() -> check(done));
        }
    }
}
