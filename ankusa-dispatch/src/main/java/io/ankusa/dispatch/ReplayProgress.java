package io.ankusa.dispatch;

import io.ankusa.api.DeadLetterCursor;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a {@link ReplayJob} stands: its state and its counts so far, which only grow, and the
 * cursor a new job resumes from ({@link Replayer#job(DeadLetterFilter, DeadLetterCursor)}).
 *
 * @param state    the job's state
 * @param examined dead letters read, matching the filter or not
 * @param replayed letters revived (due again)
 * @param skipped  matching letters someone else revived or purged before the job's chunk committed
 * @param failed   matching letters whose revival threw (their tenant's part of a chunk), or whose
 *                 tenant was erased
 * @param resumeFrom where the walk stands: the last letter examined; empty before the first chunk
 *                 and once the walk reached its end
 * @param error    why the job stopped, when its state is {@link State#FAILED}
 */
public record ReplayProgress(State state, long examined, long replayed, long skipped, long failed,
        Optional<DeadLetterCursor> resumeFrom, Optional<String> error) {

    /** A job's state. */
    public enum State {
        /** Not started yet. */
        PENDING,
        /** Replaying chunks. */
        RUNNING,
        /** Walked every matching letter. */
        DONE,
        /** Stopped by {@link ReplayJob#cancel()} between two chunks. */
        CANCELLED,
        /** Stopped by a failure reading the dead letters. */
        FAILED;

        /** {@return whether the job has stopped for good} */
        public boolean finished() {
            return this == DONE || this == CANCELLED || this == FAILED;
        }
    }

    /**
     * Checks the counts.
     *
     * @param state      the job's state
     * @param examined   dead letters read
     * @param replayed   letters revived
     * @param skipped    letters someone else revived or purged first
     * @param failed     letters whose revival threw
     * @param resumeFrom where the walk stands
     * @param error      why the job failed
     */
    public ReplayProgress {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(resumeFrom, "resumeFrom");
        Objects.requireNonNull(error, "error");
        if (examined < 0 || replayed < 0 || skipped < 0 || failed < 0) {
            throw new IllegalArgumentException("counts must not be negative");
        }
    }
}
