package io.ankusa.queue.migration;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.QueueConfig;
import io.ankusa.store.Store;

/**
 * The seam where store migrations run: {@link io.ankusa.queue.format.FormatGuard} calls
 * {@link #upgrade} for a store stamped older than the current format, after writing the
 * format-3 sentinels. A migration commits each step's ops and cursor in one synced batch and
 * stamps the new format with its last step.
 *
 * <p>This release registers no migration: {@link #NONE} refuses every older store with
 * {@code error() = "migration_missing"}. The format 2 → 3 migration ({@code TenantKeys}) is the
 * one to add here; it is the only code allowed to read the format-2 layout
 * ({@code io.ankusa.keys.v2}), and it writes the re-keyed rows with the
 * {@code Deliveries.migrated*Ops} builders so that every row carries its counter deltas.
 */
public class Migrations {

    /** No migration registered. */
    public static final Migrations NONE = new Migrations();

    /** Subclassed by the migration runner. */
    protected Migrations() {
    }

    /**
     * Brings {@code store} from format {@code from} to {@code to} and stamps it. Runs before the
     * queue serves anything (no writer, no dispatcher), on the opening thread.
     *
     * @param config the queue's configuration ({@code tenantsMax} for the overage log, the clock)
     * @throws AnkusaException with {@code error() = "migration_missing"} when no migration covers the step
     */
    public void upgrade(Store store, int from, int to, QueueConfig config) {
        throw new AnkusaException("migration_missing", "store " + store.directory() + " is at format " + from
                + "; this release has no migration registered to format " + to);
    }
}
