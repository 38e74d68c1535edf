package io.ankusa.queue;

import io.ankusa.api.QueueConfig;
import io.ankusa.api.StoreFormatNewerException;
import io.ankusa.keys.StoreFormat;
import io.ankusa.queue.migration.FormatGuard;
import io.ankusa.queue.migration.StoreLayout;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.spi.FamilyCatalog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Store format upgrades on their own, for operators and tools ({@code ankusa migrate}):
 * {@link #dryRun} lists what opening the store would migrate, {@link #run} migrates it with a
 * progress listener and closes it. {@link Queue#open} runs the same migrations itself.
 *
 * <p>Upgrades are forward-only and resumable: a migration commits each bounded step with its
 * cursor in one synced batch, and a run interrupted by a crash continues where it stopped. Take a
 * backup ({@link Queue#checkpoint}, or the older release's own) before the first run: once a
 * store is migrated, only its backup goes back.
 */
public final class StoreUpgrade {

    private StoreUpgrade() {
    }

    /**
     * One pending migration.
     *
     * @param from        the format it reads
     * @param to          the format it writes
     * @param description what it does
     * @param resuming    whether an interrupted run of it left a cursor to continue from
     */
    public record Step(int from, int to, String description, boolean resuming) {

        /**
         * Checks the fields.
         *
         * @param from the format it reads
         * @param to the format it writes
         * @param description what it does
         * @param resuming whether an interrupted run of it left a cursor to continue from
         */
        public Step {
            Objects.requireNonNull(description, "description");
        }

        /** {@code "2 -> 3: re-key due/inflight/dead by tenant ordinal, seed per-tenant counters"}. */
        @Override
        public String toString() {
            return from + " -> " + to + ": " + description;
        }
    }

    /**
     * Progress of a running migration, reported after every committed step.
     *
     * @param from     the format the migration reads
     * @param to       the format it writes
     * @param steps    steps committed by this run
     * @param rows     old rows migrated by this run
     * @param elapsed  time since this run started
     * @param position where the last step stopped (for example {@code "phase 2 (inflight)"})
     * @param done     whether the store is now at format {@code to}
     */
    public record Progress(int from, int to, long steps, long rows, Duration elapsed, String position, boolean done) {

        /**
         * Checks the fields.
         *
         * @param from the format the migration reads
         * @param to the format it writes
         * @param steps steps committed by this run
         * @param rows old rows migrated by this run
         * @param elapsed time since this run started
         * @param position where the last step stopped (for example {@code "phase 2 (inflight)"})
         * @param done whether the store is now at format {@code to}
         */
        public Progress {
            Objects.requireNonNull(elapsed, "elapsed");
            Objects.requireNonNull(position, "position");
        }

        /**
         * Rows per second so far (0 before any time passed).
         *
         * @return migrated rows per second of this run's elapsed time
         */
        public double rowsPerSecond() {
            long nanos = elapsed.toNanos();
            return nanos <= 0 ? 0 : rows * 1e9 / nanos;
        }
    }

    /** Receives {@link Progress} after every committed step, on the migrating thread. */
    @FunctionalInterface
    public interface Listener {

        /** Ignores progress. */
        Listener NONE = progress -> {
        };

        /**
         * One step was committed.
         *
         * @param progress where the migration stands after the step
         */
        void progress(Progress progress);
    }

    /**
     * The migrations opening the store in {@code config.directory()} would run, in order; empty
     * when the store is at the current format. Opens the store with the column families it holds
     * and writes nothing.
     *
     * @param config where the store lives and its backend (the queue's limits do not matter here)
     * @return the pending migrations, oldest first; empty when there is nothing to do
     * @throws StoreException              with {@link StoreError#NOT_FOUND} when there is no store
     * @throws StoreFormatNewerException   when a newer release wrote the store
     * @throws io.ankusa.api.AnkusaException with {@code error() = "migration_missing"} when this
     *                                     release cannot upgrade it
     */
    public static List<Step> dryRun(QueueConfig config) {
        Map<String, FamilyKind> held = FamilyCatalog.read(config.directory()).orElseThrow(() -> new StoreException(
                StoreError.NOT_FOUND, "no store at " + config.directory()));
        List<FamilySpec> families = held.entrySet().stream()
                .map(e -> e.getValue() == FamilyKind.COUNTER ? FamilySpec.counter(e.getKey())
                        : FamilySpec.plain(e.getKey()))
                .toList();
        try (Store store = Stores.open(config.backend(), options(config, families, false))) {
            OptionalInt stamp = FormatGuard.stamp(store);
            if (stamp.isEmpty()) {
                return List.of();
            }
            FormatGuard.requireNotNewer(store, StoreFormat.CURRENT);
            if (stamp.getAsInt() == StoreFormat.CURRENT) {
                return List.of();
            }
            return Migrations.standard().pending(store, stamp.getAsInt(), StoreFormat.CURRENT).stream()
                    .map(m -> new Step(m.from(), m.to(), m.description(), m.resuming()))
                    .toList();
        }
    }

    /**
     * Brings the existing store in {@code config.directory()} to the current format (creating the
     * new column families and sentinels, then running or resuming every pending migration),
     * reporting each committed step to {@code listener}, and closes it. Returns what was pending
     * (empty when the store was already current).
     *
     * @param config   where the store lives and its backend
     * @param listener told after every committed step, on the calling thread
     * @return the migrations that were pending, oldest first; empty when the store was already current
     * @throws StoreException              with {@link StoreError#NOT_FOUND} when there is no store
     * @throws StoreFormatNewerException   when a newer release wrote the store
     * @throws io.ankusa.api.AnkusaException with {@code error() = "migration_missing"} when this
     *                                     release cannot upgrade it
     */
    public static List<Step> run(QueueConfig config, Listener listener) {
        Objects.requireNonNull(listener, "listener");
        List<Step> pending = dryRun(config);
        try (Store store = Stores.open(config.backend(), options(config, StoreLayout.families(), false))) {
            FormatGuard.prepare(store, Migrations.standard().withListener(p -> listener.progress(
                    new Progress(p.from(), p.to(), p.steps(), p.rows(), p.elapsed(), p.position(), p.done()))),
                    config);
        }
        return pending;
    }

    private static StoreOptions options(QueueConfig config, List<FamilySpec> families, boolean create) {
        StoreOptions options = new StoreOptions(config.directory(), families, create, Map.of());
        for (var setting : config.storeSettings().entrySet()) {
            options = options.with(setting.getKey(), setting.getValue());
        }
        return options;
    }
}
