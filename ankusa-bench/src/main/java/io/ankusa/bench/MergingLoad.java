package io.ankusa.bench;

import io.ankusa.dispatch.engine.MarkerCleanup;
import io.ankusa.queue.deliveries.Deliveries;
import io.ankusa.queue.deliveries.DeliveryBatch;
import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The write load the tick benches run beside their measurements: one thread committing merging
 * batches at a paced rate (3 000 a second by default), shaped like the pipeline's work. It visits
 * the active tenants as a dispatch tick does (per-tenant cursors, {@link DeliveryLedger#dueForTenant}
 * from the cursor), and moves each row it reads with two batches built by the {@link Deliveries}
 * op builders: a claim, then the row's recovery back to due (first attempt, due now). Every such
 * batch merges into the tenant's and the aggregate's counter rows (pending and inflight: 4
 * operands) while the store keeps its shape; the claims leave tombstones at the head of each
 * tenant's due range, as real claims do. Every 250 ms it runs the pipeline's marker cleanup
 * (the dispatcher's {@link MarkerCleanup}) over the tenants it visited; those batches carry no merge and are not
 * counted.
 *
 * <p>Batches are committed unsynced: the load is there to pile merge operands onto the counter
 * rows the gauge reads, and one fsync per batch would cap it below the rate on this disk. Pacing
 * allows bursts to catch up after the thread was descheduled (up to one second of debt).
 * {@link #stop()} finishes the batch pair in progress and reports the rate achieved.
 */
final class MergingLoad implements AutoCloseable {

    /** How often the load cleans markers, as a pipeline ticking four times a second would. */
    static final long CLEANUP_INTERVAL_NANOS = 250_000_000L;

    private final Store store;
    private final DeliveryLedger ledger;
    private final long now;
    private final double perSecond;
    private final Thread thread;
    private final Map<Long, Long> cursors = new HashMap<>();
    private final MarkerCleanup cleanup;
    private volatile boolean stopping;
    private volatile RuntimeException failure;
    private volatile long batches;
    private long startNanos;
    private long endNanos;

    private MergingLoad(Store store, DeliveryLedger ledger, long now, double perSecond) {
        this.store = store;
        this.ledger = ledger;
        this.now = now;
        this.perSecond = perSecond;
        this.cleanup = new MarkerCleanup(ledger);
        this.thread = new Thread(this::run, "merging-load");
        this.thread.setDaemon(true);
    }

    /** Starts committing {@code perSecond} batches a second on {@code queue}'s store at its clock's now. */
    static MergingLoad start(BenchQueue queue, double perSecond) {
        MergingLoad load = new MergingLoad(queue.store(), queue.ledger(), queue.now(), perSecond);
        load.thread.start();
        return load;
    }

    private void run() {
        long interval = (long) (1e9 / perSecond);
        startNanos = System.nanoTime();
        long[] next = {startNanos};
        long lastCleanup = startNanos;
        try {
            while (!stopping) {
                Map<Long, List<Long>> markers = new LinkedHashMap<>();
                for (ActiveTenant marker : ledger.activeTenants(now, 4_096)) {
                    markers.computeIfAbsent(marker.ord(), o -> new ArrayList<>()).add(marker.bucket());
                }
                if (markers.isEmpty()) {
                    throw new IllegalStateException("no due rows to move");
                }
                for (Map.Entry<Long, List<Long>> tenant : markers.entrySet()) {
                    long ord = tenant.getKey();
                    List<DueRow> rows = ledger.dueForTenant(ord, now, cursors.getOrDefault(ord, 0L), 16, Long.MAX_VALUE);
                    for (DueRow due : rows) {
                        if (stopping) {
                            break;
                        }
                        next[0] = pace(next[0], interval);
                        DeliveryBatch claim = new DeliveryBatch();
                        InflightRow inflight = Deliveries.claimOps(claim, due);
                        claim.commit(store, Durability.ASYNC);
                        next[0] = pace(next[0], interval);
                        DeliveryBatch recover = new DeliveryBatch();
                        Deliveries.recoverInflightOps(recover, inflight, now);
                        recover.commit(store, Durability.ASYNC);
                        batches += 2;
                    }
                    cursors.put(ord, rows.isEmpty() ? 0L : rows.get(rows.size() - 1).at());
                }
                if (System.nanoTime() - lastCleanup >= CLEANUP_INTERVAL_NANOS) {
                    cleanup.clean(markers, now);
                    lastCleanup = System.nanoTime();
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        endNanos = System.nanoTime();
    }

    /** Waits for the next slot; after falling behind, catches up in a burst of at most one second of batches. */
    private long pace(long next, long interval) {
        long t = System.nanoTime();
        if (next > t) {
            LockSupport.parkNanos(next - t);
        } else if (t - next > (long) perSecond * interval) {
            next = t - (long) perSecond * interval;
        }
        return next + interval;
    }
    /** Batches committed so far. */
    long batches() {
        return batches;
    }

    /**
     * The most merging batches a second this load commits on {@code queue}, unpaced, over
     * {@code millis} milliseconds with nothing else running: the backend's ceiling for it.
     */
    static double ceiling(BenchQueue queue, long millis) {
        MergingLoad load = start(queue, 1e9);
        LockSupport.parkNanos(millis * 1_000_000);
        return load.stop();
    }

    /** Stops after the pair in progress; returns the batches per second achieved. */
    double stop() {
        stopping = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
        return batches / ((endNanos - startNanos) / 1e9);
    }

    @Override
    public void close() {
        if (!stopping) {
            stop();
        }
    }
}
