package io.ankusa.queue.intake;

import io.ankusa.api.QueueFailedException;
import io.ankusa.api.events.IngestCommitted;
import io.ankusa.keys.DedupeKey;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.ledger.DueStamps;
import io.ankusa.queue.ledger.GroupCommit;
import io.ankusa.queue.ledger.QueueFault;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.WriteBatch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the ingest writer's assembled batches to the store, unsynced and in order, on a thread of
 * its own, then hands their receipts to {@link DurableReceipts}: the writer assembles the next
 * batch while this one is written (on LMDB, while its data pages are {@code fdatasync}ed).
 *
 * <p>What it guarantees, and why:
 * <ul>
 * <li><b>Commit order is seq order.</b> One thread takes the batches in the order the writer
 *     assembled them; {@code m:last_seq} in each batch only grows.</li>
 * <li><b>Group commit sized by what waits.</b> Every batch waiting when the thread comes back
 *     from a commit is written in one store commit (the batches' ops in order, each batch whole as
 *     the commit is): the slower the store, the larger the commits, with no fixed size.</li>
 * <li><b>A failed batch fails every batch assembled on it.</b> The writer assembles batch N+1
 *     on the state batch N leaves (its new tenants' ordinals, its dedupe keys, admission's
 *     estimates) before N is written. Batches carry the writer's <em>generation</em>; when a commit
 *     fails, every later batch of that generation fails without being written, and the writer,
 *     told through {@link #outcomes()}, forgets that state and starts the next generation. A
 *     batch so failed was never written: its hooks were never acknowledged.</li>
 * <li><b>Every batch handed over gets exactly one outcome</b>, written or failed, even when this
 *     thread dies (it records itself in the queue's {@link QueueFault} as the ingest writer, which
 *     it is part of), so the writer can wait for the batches in flight before a chore or a stop.</li>
 * </ul>
 *
 * <p>The thread is a {@link GroupCommit} ({@code ankusa-ingest-committer}); this class is its stage.
 */
final class IngestCommitter implements GroupCommit.Stage<IngestCommitter.Assembled>, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IngestCommitter.class);

    /** Batches assembled and not yet written before the writer waits. */
    static final int MAX_AHEAD = 4;

    /**
     * One batch assembled by the writer.
     *
     * @param generation the writer's generation when it assembled the batch
     * @param ops        what to write; null when the batch writes nothing (only repeats)
     * @param accepted   the receipts of its accepted hooks
     * @param repeats    the receipts of its repeats of hooks stored before (maybe in flight)
     * @param tally      its tally, for its event
     * @param resolution its tenants' ordinals; null when it writes nothing
     * @param keys       the dedupe entries it writes
     * @param clock      the queue time it writes to {@code m:clock}
     * @param stamp      the stamp of its due rows, held until its outcome; null when it writes nothing
     */
    record Assembled(long generation, WriteBatch ops, List<DurableReceipts.Due> accepted,
            List<DurableReceipts.Due> repeats, BatchTally tally, Resolution resolution,
            Map<DedupeKey, DedupeKey.Value> keys, long clock, DueStamps.Held stamp) {
    }

    /**
     * What became of one batch handed over.
     *
     * @param batch   the batch
     * @param written whether it was written (its receipts then wait for the sync)
     */
    record Outcome(Assembled batch, boolean written) {
    }

    private static final Assembled STOP = new Assembled(-1, null, List.of(), List.of(), null, null, Map.of(), 0, null);

    private final Store store;
    private final TenantOrdinals ordinals;
    private final DurableReceipts receipts;
    private final EventHub events;
    private final QueueFault fault;
    private final BlockingQueue<Assembled> waiting = new ArrayBlockingQueue<>(MAX_AHEAD);
    private final BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
    private final GroupCommit<Assembled> commits;
    /** The highest generation a failed commit ended, and that failure; this thread only. */
    private long failedGeneration = -1;
    private RuntimeException failedCommit;
    /** The batches of the group being written that have their outcome (the writer may fail batches too). */
    private final Set<Assembled> reported =
            Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    private volatile Throwable death;

    IngestCommitter(Store store, TenantOrdinals ordinals, DurableReceipts receipts, EventHub events, QueueFault fault) {
        this.store = store;
        this.ordinals = ordinals;
        this.receipts = receipts;
        this.events = events;
        this.fault = fault;
        this.commits = new GroupCommit<>("ankusa-ingest-committer", waiting, STOP, this);
        this.commits.start();
    }

    /** The outcomes, in the order the batches were handed over (the writer takes them). */
    BlockingQueue<Outcome> outcomes() {
        return outcomes;
    }

    /** Why this thread died, or null while it runs. */
    Throwable death() {
        return death;
    }

    /**
     * Hands over an assembled batch (writer thread); waits while {@value #MAX_AHEAD} batches wait.
     * A batch handed to a dead committer fails at once; either way it gets its outcome.
     */
    void handOff(Assembled batch) {
        try {
            while (!waiting.offer(batch, 50, TimeUnit.MILLISECONDS)) {
                if (death != null) {
                    fail(batch, deathFailure());
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(batch, new QueueFailedException("ingest writer", e));
            return;
        }
        if (death != null) {
            // The dying thread may have drained its queue before this batch arrived.
            failWaiting(deathFailure());
        }
    }

    private QueueFailedException deathFailure() {
        QueueFailedException failed = fault.failure();
        return failed != null ? failed : new QueueFailedException("ingest writer", death);
    }

    /** The thread dies (interrupted while it waited, or a commit threw): everything not reported fails. */
    @Override
    public void died(List<Assembled> group, Throwable cause) {
        death = cause;
        QueueFailedException failed = fault.fail("ingest writer", cause);
        // A batch of the group may already have its outcome; failing it again changes nothing
        // it reported (its futures are complete), but it must not report twice.
        group.stream().filter(b -> !reported.contains(b)).forEach(b -> fail(b, failed));
        failWaiting(failed);
    }

    private void failWaiting(RuntimeException why) {
        Assembled next;
        while ((next = waiting.poll()) != null) {
            if (next != STOP) {
                fail(next, why);
            }
        }
    }

    /** Writes {@code group} in one commit; batches of a failed generation fail unwritten. */
    @Override
    public void commit(List<Assembled> group) {
        reported.clear();
        QueueFailedException failed = fault.failure();
        if (failed != null) {
            group.forEach(b -> fail(b, failed));
            return;
        }
        List<Assembled> live = new ArrayList<>(group.size());
        List<WriteBatch> writes = new ArrayList<>(group.size());
        for (Assembled b : group) {
            if (b.generation() <= failedGeneration) {
                fail(b, dependentFailure());
                continue;
            }
            live.add(b);
            if (b.ops() != null) {
                writes.add(b.ops());
            }
        }
        if (!writes.isEmpty()) {
            WriteBatch merged = writes.get(0);
            if (writes.size() > 1) {
                merged = new WriteBatch();
                for (WriteBatch w : writes) {
                    merged.addAll(w);
                }
            }
            try {
                store.commit(merged, Durability.ASYNC);
            } catch (RuntimeException e) {
                LOG.error("ingest commit of {} batches failed; their hooks are not acknowledged", writes.size(), e);
                failedCommit = e;
                for (Assembled b : live) {
                    failedGeneration = Math.max(failedGeneration, b.generation());
                    fail(b, e);
                }
                return;
            }
        }
        for (Assembled b : live) {
            written(b);
        }
    }

    /** The failure of a batch assembled after a batch whose commit failed: it was not written. */
    private RuntimeException dependentFailure() {
        String message = "ingest batch not written: a batch assembled before it failed to commit ("
                + failedCommit.getMessage() + ")";
        return failedCommit instanceof StoreException known ? new StoreException(known.reason(), message, known)
                : new StoreException(StoreError.IO, message, failedCommit);
    }

    private void written(Assembled b) {
        if (b.resolution() != null) {
            ordinals.committed(b.resolution());
            b.tally().accepted(b.accepted().size());
        }
        report(new Outcome(b, true));
        List<DurableReceipts.Due> due = new ArrayList<>(b.accepted().size() + b.repeats().size());
        due.addAll(b.repeats());
        due.addAll(b.accepted());
        // Receipts and the batch's event follow the sync that makes it durable.
        receipts.written(new DurableReceipts.Written(due, b.tally()));
    }

    private void fail(Assembled b, RuntimeException why) {
        // The writer hears of the failure before any producer does. It takes outcomes before it
        // starts a batch, so a producer that saw this failure and sends again starts a batch of the
        // next generation (one sent while a batch is being assembled may still join it, and fail).
        report(new Outcome(b, false));
        b.accepted().forEach(d -> d.future().completeExceptionally(why));
        b.repeats().forEach(d -> d.future().completeExceptionally(why));
        if (b.tally() != null && events.active()) {
            b.tally().notDurable();
            IngestCommitted committed = b.tally().finish(System.nanoTime());
            events.publish(listener -> listener.onIngestCommitted(committed));
        }
    }

    private void report(Outcome outcome) {
        // Written (visible to any reader opened from now on) or never to be: the stamp is released.
        if (outcome.batch().stamp() != null) {
            outcome.batch().stamp().close();
        }
        reported.add(outcome.batch());
        outcomes.add(outcome);
    }

    /** Writes what was handed over, then stops the thread (after the writer stopped). */
    @Override
    public void close() {
        try {
            if (commits.isAlive()) {
                waiting.put(STOP);
            }
            commits.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (death != null) {
            failWaiting(deathFailure());
        }
    }
}
