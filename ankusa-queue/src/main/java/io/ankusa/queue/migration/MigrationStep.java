package io.ankusa.queue.migration;

import io.ankusa.queue.deliveries.DeliveryBatch;
import java.util.Objects;

/**
 * What one migration step produced: the ops to commit and where the next step starts.
 *
 * @param ops      the step's row changes and counter deltas (the runner adds the cursor or the
 *                 format stamp and commits it all in one synced batch)
 * @param cursor   where the next step starts (ignored when {@code done})
 * @param rows     how many old rows the step visited (for progress and rows/s)
 * @param position where the step stopped, for people (for example {@code "phase 2 (inflight)"})
 * @param done     whether this was the last step
 */
public record MigrationStep(DeliveryBatch ops, byte[] cursor, int rows, String position, boolean done) {

    /** Checks the fields. */
    public MigrationStep {
        Objects.requireNonNull(ops, "ops");
        Objects.requireNonNull(cursor, "cursor");
        Objects.requireNonNull(position, "position");
        cursor = cursor.clone();
        if (rows < 0) {
            throw new IllegalArgumentException("rows must be >= 0: " + rows);
        }
    }

    @Override
    public byte[] cursor() {
        return cursor.clone();
    }
}
