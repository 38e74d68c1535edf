package io.ankusa.queue;

import io.ankusa.api.Archiver;
import io.ankusa.queue.engine.QueueEngine;
import java.time.Duration;

/**
 * Hands hooks with an archive obligation (ingested while the queue's {@code archive} setting was
 * on) to an {@link Archiver}, oldest first, and settles or drops their obligations: the
 * {@code archive_pending} counter falls, and reclaim may then remove hooks nobody owes.
 *
 * <p>Per hook: archived → settled; rejected, or the hook is gone or does not decode → dropped; the
 * archiver throws → the round stops, the obligation stays and is offered again next round. At
 * least once: a crash after {@code archive} returned and before the round's commit offers the
 * hook again. Rounds never overlap. Close the compactor before the queue.
 */
public interface ArchiveCompactor extends AutoCloseable {

    /** Hooks handed to the archiver per round. */
    int ROUND = 256;

    /**
     * A compactor that runs a round every {@code interval} on its own thread until closed.
     *
     * @param queue    the open queue whose archive obligations the compactor settles
     * @param archiver where archived hooks go; a hook it fails on stays and is offered again
     * @param interval the pause between two rounds; positive
     * @return the running compactor; close it before the queue
     */
    static ArchiveCompactor start(Queue queue, Archiver archiver, Duration interval) {
        return Compactor.start(QueueEngine.of(queue), archiver, interval);
    }

    /**
     * A compactor without a thread: the caller runs {@link #compact} when it likes.
     *
     * @param queue    the open queue whose archive obligations the compactor settles
     * @param archiver where archived hooks go; a hook it fails on stays and is offered again
     * @return a compactor that runs a round only when {@link #compact} is called
     */
    static ArchiveCompactor manual(Queue queue, Archiver archiver) {
        return Compactor.manual(QueueEngine.of(queue), archiver);
    }

    /**
     * One round over up to {@code limit} of the oldest obligations (1..10 000); returns how many
     * it settled or dropped.
     *
     * @param limit the most obligations to handle in this round, 1..10 000
     * @return how many obligations the round settled or dropped; fewer than {@code limit} when the backlog ran out
     */
    int compact(int limit);

    /** Stops the thread, if any, after the round in progress. Idempotent. */
    @Override
    void close();
}
