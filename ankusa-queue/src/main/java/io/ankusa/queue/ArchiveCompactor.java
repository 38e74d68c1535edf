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

    /** A compactor that runs a round every {@code interval} on its own thread until closed. */
    static ArchiveCompactor start(Queue queue, Archiver archiver, Duration interval) {
        return Compactor.start(QueueEngine.of(queue), archiver, interval);
    }

    /** A compactor without a thread: the caller runs {@link #compact} when it likes. */
    static ArchiveCompactor manual(Queue queue, Archiver archiver) {
        return Compactor.manual(QueueEngine.of(queue), archiver);
    }

    /**
     * One round over up to {@code limit} of the oldest obligations (1..10 000); returns how many
     * it settled or dropped.
     */
    int compact(int limit);

    /** Stops the thread, if any, after the round in progress. Idempotent. */
    @Override
    void close();
}
