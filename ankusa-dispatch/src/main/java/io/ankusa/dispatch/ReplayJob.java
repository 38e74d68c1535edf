package io.ankusa.dispatch;

import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterCursor;
import io.ankusa.queue.Queue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bulk replay of the dead letters a {@link DeadLetterFilter} matches, in bounded chunks: each
 * chunk is one {@link DeadLetterFilter} page of at most {@value #CHUNK} matching letters (reading at
 * most {@value DeadLetterFilter#MAX_EXAMINED}), revived with one commit per tenant of the chunk
 * under that tenant's stripe, as {@link Replayer} revives, and audited as a replay. Between chunks
 * the job yields its thread and holds no lock, so dispatch goes on beside it.
 *
 * <p>The walk goes newest first from where it started: a letter revived by the job that fails for
 * good again is newer than the job's cursor and is not replayed a second time; letters
 * dead-lettered after the job began are left for a later replay.
 *
 * <p>{@link #progress()} may be read from any thread while {@link #run()} works; {@link #cancel()}
 * stops the job before its next chunk. A job runs once; to resume a cancelled or failed one, start a
 * new job from its {@link ReplayProgress#resumeFrom()} cursor. Create with {@link Replayer#job}.
 */
public final class ReplayJob {

    /** Matching letters per chunk. */
    public static final int CHUNK = 256;

    private static final Logger LOG = LoggerFactory.getLogger(ReplayJob.class);

    private final Replayer replayer;
    private final Queue queue;
    private final DeadLetterFilter filter;
    private final Object lock = new Object();
    private volatile boolean cancelled;
    private boolean started;
    private ReplayProgress progress;

    ReplayJob(Replayer replayer, Queue queue, DeadLetterFilter filter,
            Optional<DeadLetterCursor> resumeFrom) {
        this.replayer = replayer;
        this.queue = queue;
        this.filter = Objects.requireNonNull(filter, "filter");
        this.progress = new ReplayProgress(ReplayProgress.State.PENDING, 0, 0, 0, 0, resumeFrom, Optional.empty());
    }

    /** {@return the filter the job replays} */
    public DeadLetterFilter filter() {
        return filter;
    }

    /** {@return the job's state and counts now} */
    public ReplayProgress progress() {
        synchronized (lock) {
            return progress;
        }
    }

    /**
     * Asks the job to stop before its next chunk (a chunk under way finishes and is counted). A job
     * cancelled before it ran does not run.
     */
    public void cancel() {
        cancelled = true;
    }

    /**
     * Runs the job on the calling thread, chunk by chunk, until it has walked every matching
     * letter, is cancelled, or a read fails (state {@link ReplayProgress.State#FAILED}, with the
     * error; nothing is thrown).
     *
     * @return the final progress
     * @throws IllegalStateException when the job already ran
     */
    public ReplayProgress run() {
        return run(p -> { });
    }

    /**
     * Runs the job like {@link #run()}, handing {@code afterEachChunk} the progress after each
     * chunk, on the calling thread, before the job checks for {@link #cancel()} and goes on (a
     * listener that throws fails the job).
     *
     * @param afterEachChunk told the progress after each chunk
     * @return the final progress
     * @throws IllegalStateException when the job already ran
     */
    public ReplayProgress run(Consumer<ReplayProgress> afterEachChunk) {
        Objects.requireNonNull(afterEachChunk, "afterEachChunk");
        synchronized (lock) {
            if (started) {
                throw new IllegalStateException("a replay job runs once; start a new one from its cursor");
            }
            started = true;
            progress = with(ReplayProgress.State.RUNNING, progress.resumeFrom(), 0, 0, 0, 0);
        }
        try {
            while (!cancelled) {
                boolean more = chunk();
                afterEachChunk.accept(progress());
                if (!more) {
                    return finish(ReplayProgress.State.DONE, Optional.empty());
                }
                Thread.yield();
            }
            return finish(ReplayProgress.State.CANCELLED, Optional.empty());
        } catch (RuntimeException e) {
            LOG.warn("replay job {} failed", filter, e);
            String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
            return finish(ReplayProgress.State.FAILED, Optional.of(message));
        }
    }

    /** One chunk; whether the walk goes on. */
    private boolean chunk() {
        Optional<DeadLetterCursor> from = progress().resumeFrom();
        FilteredDeadLetters page = from.isPresent() ? filter.page(queue, from.get(), CHUNK)
                : filter.page(queue, CHUNK);
        Map<String, List<DeadLetter>> byTenant = new LinkedHashMap<>();
        page.letters().forEach(l -> byTenant.computeIfAbsent(l.tenantId(), t -> new ArrayList<>()).add(l));
        long replayed = 0;
        long skipped = 0;
        long failed = 0;
        for (Map.Entry<String, List<DeadLetter>> tenant : byTenant.entrySet()) {
            try {
                Optional<ReplayResult> result = replayer.reviveLetters(tenant.getKey(), tenant.getValue());
                if (result.isPresent()) {
                    replayed += result.get().revived();
                    skipped += result.get().skipped();
                } else {
                    failed += tenant.getValue().size();
                }
            } catch (RuntimeException e) {
                LOG.warn("replay job {}: reviving {} letters of one tenant failed", filter,
                        tenant.getValue().size(), e);
                failed += tenant.getValue().size();
            }
        }
        synchronized (lock) {
            progress = with(ReplayProgress.State.RUNNING, page.next(), page.examined(), replayed, skipped, failed);
        }
        return page.next().isPresent();
    }

    private ReplayProgress finish(ReplayProgress.State state, Optional<String> error) {
        synchronized (lock) {
            ReplayProgress p = progress;
            progress = new ReplayProgress(state, p.examined(), p.replayed(), p.skipped(), p.failed(),
                    p.resumeFrom(), error);
            return progress;
        }
    }

    /** The progress with {@code state}, the cursor, and the counts added. Called under the lock. */
    private ReplayProgress with(ReplayProgress.State state, Optional<DeadLetterCursor> cursor, long examined,
            long replayed, long skipped, long failed) {
        ReplayProgress p = progress;
        return new ReplayProgress(state, p.examined() + examined, p.replayed() + replayed, p.skipped() + skipped,
                p.failed() + failed, cursor, Optional.empty());
    }
}
