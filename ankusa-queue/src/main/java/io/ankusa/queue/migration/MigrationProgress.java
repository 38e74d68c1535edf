package io.ankusa.queue.migration;

import java.time.Duration;
import java.util.Objects;

/**
 * Progress of a running migration, reported by {@link Migrations} after every committed step (the
 * API's {@code StoreUpgrade.Progress} is built from it).
 *
 * @param from     the format the migration reads
 * @param to       the format it writes
 * @param steps    steps committed by this run
 * @param rows     old rows migrated by this run
 * @param elapsed  time since this run started
 * @param position where the last step stopped (for example {@code "phase 2 (inflight)"})
 * @param done     whether the store is now at format {@code to}
 */
public record MigrationProgress(int from, int to, long steps, long rows, Duration elapsed, String position,
        boolean done) {

    /** Checks the fields. */
    public MigrationProgress {
        Objects.requireNonNull(elapsed, "elapsed");
        Objects.requireNonNull(position, "position");
    }

    /**
     * Rows per second so far.
     *
     * @return the rate, 0 before any time passed
     */
    public double rowsPerSecond() {
        long nanos = elapsed.toNanos();
        return nanos <= 0 ? 0 : rows * 1e9 / nanos;
    }
}
