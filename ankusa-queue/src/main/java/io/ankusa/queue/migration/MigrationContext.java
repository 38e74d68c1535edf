package io.ankusa.queue.migration;

import io.ankusa.api.QueueConfig;
import io.ankusa.store.Store;
import java.util.Objects;

/**
 * What a migration step may use.
 *
 * @param store     the store being migrated (nothing else uses it while the migration runs)
 * @param config    the queue's configuration ({@code tenants.max}, the clock)
 * @param startedAt when the migration first started, epoch milliseconds; stored with the cursor,
 *                  so a resumed run sees the same value
 */
public record MigrationContext(Store store, QueueConfig config, long startedAt) {

    /** Checks the fields. */
    public MigrationContext {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(config, "config");
    }
}
