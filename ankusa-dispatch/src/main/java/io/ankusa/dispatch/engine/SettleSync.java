package io.ankusa.dispatch.engine;

import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.GroupCommit;
import io.ankusa.queue.ledger.QueueFault;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The second half of the {@link Settler}'s group commit, on a thread of its own
 * ({@code ankusa-dispatch-settle-sync}): makes the settle batches the settler wrote (unsynced)
 * durable, then completes them, so the settler writes its next batch while this one is synced.
 *
 * <p>It takes every batch handed over so far, makes them durable with one
 * {@link DeliveryLedger#syncSettled()} (a synced commit hardens every commit before it, on both
 * backends), then completes them in the order they were written: their events, their futures, and
 * so their deliveries' slots. A settle is never reported before a sync that started after its
 * write returned, so the duplicate window after a crash is what it was when each batch synced on
 * its own (docs/delivery.md). A failed sync fails the batches it covered (their rows may be settled
 * or not after a crash: inflight rows come back due at the next open, at least once), as a failed
 * synced settle did.
 *
 * <p>Every batch handed over is completed or failed exactly once, also when this thread dies of an
 * {@code Error}: it records itself in the queue's {@link QueueFault} as the settler (it is part of
 * it) and fails what it holds and every later batch. The thread is a {@link GroupCommit}; this
 * class is its stage.
 */
final class SettleSync implements GroupCommit.Stage<SettleSync.Written>, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SettleSync.class);

    /**
     * One settle batch written.
     *
     * @param unsynced whether it wrote something a sync must cover before it completes
     * @param complete reports it settled (events, futures), once durable
     * @param fail     fails it
     */
    record Written(boolean unsynced, Runnable complete, Consumer<RuntimeException> fail) {
    }

    private static final Written STOP = new Written(false, () -> { }, e -> { });

    private final DeliveryLedger ledger;
    private final QueueFault fault;
    private final LinkedBlockingQueue<Written> waiting = new LinkedBlockingQueue<>();
    private final GroupCommit<Written> syncs;
    /** Set once this thread takes no more batches (stopped or died), before it fails what waits. */
    private volatile boolean ended;

    SettleSync(DeliveryLedger ledger, QueueFault fault) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.fault = Objects.requireNonNull(fault, "fault");
        this.syncs = new GroupCommit<>("ankusa-dispatch-settle-sync", waiting, STOP, this);
        syncs.start();
    }

    /**
     * Hands over a written batch (settler thread); never blocks. The batches waiting are bounded by
     * the pipeline's concurrency: each holds the slots of its deliveries until it completes.
     */
    void written(Written batch) {
        waiting.add(batch);
        if (ended) {
            // Ended before or after the add: do not leave a batch waiting (added before the end was
            // marked, the thread fails it itself).
            failWaiting(deathFailure());
        }
    }

    private RuntimeException deathFailure() {
        RuntimeException failed = fault.failure();
        return failed != null ? failed : new IllegalStateException("the pipeline is closed");
    }

    /** The thread dies (interrupted while it waited, or a sync threw): the queue, the group and what waits fail. */
    @Override
    public void died(List<Written> group, Throwable cause) {
        RuntimeException failed = fault.fail("settler", cause);
        // A batch of the group may already be complete; failing its futures again changes nothing.
        group.forEach(w -> w.fail().accept(failed));
        failWaiting(failed);
    }

    /** The thread takes no more batches (stopped or died): what is handed over from now on fails. */
    @Override
    public void ended() {
        ended = true;
        failWaiting(deathFailure());
    }

    /** Makes {@code group} durable with one sync (when it wrote anything), then completes it in order. */
    @Override
    public void commit(List<Written> group) {
        if (group.stream().anyMatch(Written::unsynced)) {
            try {
                ledger.syncSettled();
            } catch (RuntimeException e) {
                LOG.error("syncing {} settle batches failed; their rows stay inflight until the queue is reopened",
                        group.size(), e);
                group.forEach(w -> w.fail().accept(e));
                return;
            }
        }
        group.forEach(w -> w.complete().run());
    }

    private void failWaiting(RuntimeException why) {
        Written next;
        while ((next = waiting.poll()) != null) {
            next.fail().accept(why);
        }
    }

    /** Syncs and completes what was handed over, then stops the thread (after the settler stopped). */
    @Override
    public void close() {
        waiting.add(STOP);
        try {
            syncs.join(Duration.ofSeconds(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failWaiting(deathFailure());
    }
}
