package io.ankusa.queue.intake;

import io.ankusa.api.QueueFailedException;
import io.ankusa.api.Receipt;
import io.ankusa.api.events.IngestCommitted;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.ledger.GroupCommit;
import io.ankusa.queue.ledger.QueueFault;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the ingest writer's batches durable and only then completes their receipts: the second
 * half of the writer's group commit, on a thread of its own, so that the writer assembles and
 * writes the next batch while this one waits for the disk.
 *
 * <p>The writer commits each batch unsynced (applied and visible, in the OS page cache) and hands
 * its receipts here. This thread takes every batch handed over so far, makes them durable with one
 * synced empty commit — on both backends a synced commit hardens every commit before it (RocksDB
 * syncs the write-ahead log, LMDB the environment) — and completes their receipts, in batch order.
 * So a receipt still means durable; what changes is that the next batch's assembly (envelopes,
 * delivery rows, markers, counters, the batch's validation) and its write overlap this fsync.
 *
 * <p>A batch whose receipts are not complete may already be read by others (a pipeline may claim
 * and deliver its hook): at least once allows that; a power loss before the sync loses the batch
 * whole and its producer, never told it was stored, sends it again. A receipt that refers to an
 * earlier batch (an idempotent repeat) is completed here too, after the sync, so that it never
 * runs ahead of the batch it names. A failed sync fails the receipts it covered and the queue
 * ({@link QueueFault}): whether those batches reached the disk is unknown, and the writer has
 * already gone on from them.
 *
 * <p>At most {@value #MAX_WAITING} batches wait here; the writer blocks when they are all taken.
 * The thread is a {@link GroupCommit} ({@code ankusa-ingest-sync}); this class is its stage.
 */
final class DurableReceipts implements GroupCommit.Stage<DurableReceipts.Written>, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DurableReceipts.class);

    /** Batches written and not yet synced before the writer waits. */
    static final int MAX_WAITING = 8;

    /** A receipt to complete once durable. */
    record Due(CompletableFuture<Receipt> future, Receipt receipt) {
    }

    /** One written batch: the receipts it completes and its tally, published just before them. */
    record Written(List<Due> receipts, BatchTally tally) {
    }

    private static final Written STOP = new Written(List.of(), null);

    private final Store store;
    private final EventHub events;
    private final QueueFault fault;
    private final BlockingQueue<Written> waiting = new ArrayBlockingQueue<>(MAX_WAITING);
    private final GroupCommit<Written> syncs;

    DurableReceipts(Store store, EventHub events, QueueFault fault) {
        this.store = store;
        this.events = events;
        this.fault = fault;
        this.syncs = new GroupCommit<>("ankusa-ingest-sync", waiting, STOP, this);
        this.syncs.start();
    }

    /** Hands over a written batch (writer thread); waits while {@value #MAX_WAITING} batches wait. */
    void written(Written batch) {
        if (!syncs.isAlive()) {
            fail(List.of(batch), fault.failure() != null ? fault.failure()
                    : new QueueFailedException("ingest sync", new IllegalStateException("the sync thread stopped")));
            return;
        }
        try {
            waiting.put(batch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(List.of(batch), new QueueFailedException("ingest sync", e));
        }
    }

    /**
     * The thread dies. Interrupted while it waits for a batch (the group is then empty), it records
     * no queue failure: the writer finds the thread gone at its next hand-off. Anything else fails
     * the queue, the group and every batch waiting.
     */
    @Override
    public void died(List<Written> group, Throwable cause) {
        if (cause instanceof InterruptedException) {
            fail(group, new QueueFailedException("ingest sync", cause));
            return;
        }
        QueueFailedException failed = fault.fail("ingest sync", cause);
        fail(group, failed);
        List<Written> rest = new ArrayList<>();
        waiting.drainTo(rest);
        fail(rest, failed);
    }

    /** Makes {@code group} durable with one synced commit, then completes its receipts in order. */
    @Override
    public void commit(List<Written> group) {
        QueueFailedException failed = fault.failure();
        if (failed != null) {
            fail(group, failed);
            return;
        }
        try {
            store.commit(new WriteBatch(), Durability.SYNC);
        } catch (RuntimeException e) {
            // The batches are applied and may or may not be on disk, and the writer has gone on
            // from them (ordinals cached, seqs taken): the queue cannot tell what a restart will
            // find, so it fails rather than acknowledge anything more.
            LOG.error("syncing {} ingest batches failed; their hooks are not acknowledged", group.size(), e);
            fail(group, fault.fail("ingest sync", e));
            return;
        }
        for (Written batch : group) {
            // The batch's event is handed off before its receipts complete, so a producer that has
            // its receipt finds the event already published before anything it ingests next.
            publish(batch.tally());
            batch.receipts().forEach(d -> d.future().complete(d.receipt()));
        }
    }

    private void fail(List<Written> group, RuntimeException why) {
        for (Written batch : group) {
            if (batch == STOP) {
                continue;
            }
            if (batch.tally() != null) {
                batch.tally().notDurable();
                publish(batch.tally());
            }
            batch.receipts().forEach(d -> d.future().completeExceptionally(why));
        }
    }

    private void publish(BatchTally tally) {
        if (tally != null && events.active()) {
            IngestCommitted committed = tally.finish(System.nanoTime());
            events.publish(listener -> listener.onIngestCommitted(committed));
        }
    }

    /** Syncs and completes what was handed over, then stops the thread (after the writer stopped). */
    @Override
    public void close() {
        try {
            if (syncs.isAlive()) {
                waiting.put(STOP);
            }
            syncs.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
