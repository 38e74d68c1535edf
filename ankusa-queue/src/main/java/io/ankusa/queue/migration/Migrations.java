package io.ankusa.queue.migration;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.QueueConfig;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.MetaKeys;
import io.ankusa.queue.deliveries.DeliveryBatch;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The migration runner: a registry of {@link Migration}s by the format they read, and the loop
 * that runs them. {@link io.ankusa.queue.migration.FormatGuard} calls {@link #upgrade} for a store
 * stamped older than the current format, after writing the current format's sentinels; nothing
 * else uses the store until it returns.
 *
 * <p>What the runner guarantees, and why:
 * <ul>
 * <li><b>A step is whole or absent.</b> Each step's ops, its cursor (in {@code m:migrating:<to>})
 *     and, in the last step, the new format stamp and the removal of {@code m:migrating:<to>} are
 *     committed in <em>one</em> batch. A crash leaves the store after a whole number of
 *     steps: still stamped with the old format, with the cursor of the last step it kept. The
 *     batch's ops are handed to the store in key order within each family ({@link KeyOrderedBatch}:
 *     the same writes, cheaper memtable inserts on RocksDB).</li>
 * <li><b>Synced every {@value #SYNCED_EVERY_STEPS} steps, and at the end.</b> The other steps are
 *     committed {@link Durability#ASYNC}: a process crash keeps them, and a power loss loses at most
 *     the unsynced steps, a suffix of the commit order on both backends (a synced commit hardens
 *     every earlier one), which the next run does again from the last kept cursor. One fsync per
 *     step was most of the migration's time on RocksDB (docs/testing.md, "The migration bench");
 *     the last step, which stamps the new format, is always synced.</li>
 * <li><b>Steps commit in order, one at a time, on a commit thread.</b> The next step is computed
 *     while the previous one commits (a migration reads only old keys past its cursor and families
 *     it never writes, so what the commit changes is not what the next step reads); a step's batch
 *     is submitted only after the previous commit returned and the listener was told, so a failed
 *     commit ends the run with nothing after it committed, and while the listener runs no step
 *     after the one it is told of has been committed.</li>
 * <li><b>Resumable without double counting.</b> A run finding {@code m:migrating:<to>} continues
 *     from its cursor with the stored start time, so every old row is moved by exactly one
 *     committed step and counted once, whatever happened to earlier runs.</li>
 * <li><b>Only the current release opens a half-migrated store.</b> It is still stamped with the
 *     old format, but it already holds column families the old release does not declare, which
 *     the store refuses to open with the old release's list.</li>
 * </ul>
 * Progress (rows, rows/s) is logged through SLF4J every few seconds and at the end, and reported
 * after every committed step to the listener.
 */
public final class Migrations {

    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    private static final long LOG_INTERVAL_NANOS = Duration.ofSeconds(5).toNanos();
    /** Every this many steps one is committed {@link Durability#SYNC}; the others ride on it. */
    static final int SYNCED_EVERY_STEPS = 8;

    /** No migration registered: every older store is refused with {@code migration_missing}. */
    public static final Migrations NONE = new Migrations(Map.of(), progress -> {
    });

    private final Map<Integer, Migration> byFrom;
    private final Consumer<MigrationProgress> listener;

    private Migrations(Map<Integer, Migration> byFrom, Consumer<MigrationProgress> listener) {
        this.byFrom = Map.copyOf(byFrom);
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** The migrations this release ships: {@code {2, 3, TenantKeys}}. */
    public static Migrations standard() {
        return NONE.with(new TenantKeys(TenantKeys.MAX_DIRECTORY_HOOKS, TenantKeys.ROWS_PER_STEP));
    }

    /**
     * The standard migrations with the 2 → 3 migration's hook directory capped at
     * {@code maxDirectoryHooks} hooks (0: every step reads its hooks with a multi-get, as for a
     * store with more hooks than the default cap). For tests of that path; the result must not differ.
     */
    public static Migrations standardWithHookDirectoryCap(int maxDirectoryHooks) {
        return NONE.with(new TenantKeys(maxDirectoryHooks, TenantKeys.ROWS_PER_STEP));
    }

    /**
     * The standard migrations with the 2 → 3 migration's steps of at most {@code rowsPerStep} old
     * rows instead of {@value TenantKeys#ROWS_PER_STEP}. For tests that interrupt a migration
     * between steps of a small store; the migrated store must not differ.
     */
    public static Migrations standardWithStepRows(int rowsPerStep) {
        return standardWithHookDirectoryCap(TenantKeys.MAX_DIRECTORY_HOOKS, rowsPerStep);
    }

    /** Both: the hook directory capped at {@code maxDirectoryHooks}, steps of at most {@code rowsPerStep} rows. */
    public static Migrations standardWithHookDirectoryCap(int maxDirectoryHooks, int rowsPerStep) {
        return NONE.with(new TenantKeys(maxDirectoryHooks, rowsPerStep));
    }

    /** This registry plus {@code migration}; refuses a second migration from the same format. */
    public Migrations with(Migration migration) {
        if (migration.to() <= migration.from()) {
            throw new IllegalArgumentException("a migration goes forward: " + migration.from() + " -> "
                    + migration.to());
        }
        Map<Integer, Migration> copy = new TreeMap<>(byFrom);
        if (copy.putIfAbsent(migration.from(), migration) != null) {
            throw new IllegalArgumentException("a migration from format " + migration.from()
                    + " is already registered");
        }
        return new Migrations(copy, listener);
    }

    /** This registry reporting every committed step to {@code progress}. */
    public Migrations withListener(Consumer<MigrationProgress> progress) {
        return new Migrations(byFrom, progress);
    }

    /**
     * The migrations that take a store from {@code from} to {@code to}, in order.
     *
     * @throws AnkusaException with {@code error() = "migration_missing"} when no chain covers it
     */
    public List<Migration> plan(Store store, int from, int to) {
        List<Migration> out = new ArrayList<>();
        int at = from;
        while (at < to) {
            Migration next = byFrom.get(at);
            if (next == null || next.to() > to) {
                throw new AnkusaException("migration_missing", "store " + store.directory() + " is at format " + from
                        + "; this release has no migration from format " + at + " (it upgrades stores to format " + to
                        + " from " + (byFrom.isEmpty() ? "no older format" : "format " + byFrom.keySet()) + ")");
            }
            out.add(next);
            at = next.to();
        }
        return out;
    }

    /** What {@link #upgrade} would run, as a dry run lists it; writes nothing. */
    public List<PendingMigration> pending(Store store, int from, int to) {
        List<PendingMigration> out = new ArrayList<>();
        for (Migration m : plan(store, from, to)) {
            boolean resuming = store.get(ColumnFamilies.DEFAULT, MetaKeys.migrating(m.to())).isPresent();
            out.add(new PendingMigration(m.from(), m.to(), m.description(), resuming));
        }
        return out;
    }

    /**
     * Brings {@code store} from format {@code from} to {@code to} and stamps it, resuming a
     * migration a crash interrupted. Runs before the queue serves anything, on the calling thread.
     *
     * @param config the queue's configuration ({@code tenants.max}, the clock for the start time)
     * @throws AnkusaException with {@code error() = "migration_missing"} when no migration covers a step
     */
    public void upgrade(Store store, int from, int to, QueueConfig config) {
        for (Migration migration : plan(store, from, to)) {
            run(store, migration, config);
        }
    }

    private void run(Store store, Migration migration, QueueConfig config) {
        byte[] cursorKey = MetaKeys.migrating(migration.to());
        Optional<RunnerCursor> stored = store.get(ColumnFamilies.DEFAULT, cursorKey).map(RunnerCursor::decode);
        long startedAt = stored.map(RunnerCursor::startedAt).orElseGet(() -> config.clock().millis());
        byte[] cursor = stored.map(RunnerCursor::cursor).orElse(new byte[0]);
        String name = migration.from() + " -> " + migration.to() + ": " + migration.description();
        if (stored.isPresent()) {
            LOG.info("store {}: resuming migration {} (interrupted run; cursor {} bytes)", store.directory(), name,
                    cursor.length);
        } else {
            LOG.info("store {}: migrating {}", store.directory(), name);
        }
        MigrationContext context = new MigrationContext(store, config, startedAt);
        long start = System.nanoTime();
        long lastLog = start;
        long rows = 0;
        long steps = 0;
        ExecutorService committer = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ankusa-migration-commit");
            thread.setDaemon(true);
            return thread;
        });
        Future<?> committing = null;
        try {
            MigrationStep step = migration.step(context, cursor);
            while (true) {
                DeliveryBatch batch = step.ops();
                if (step.done()) {
                    batch.put(ColumnFamilies.DEFAULT, MetaKeys.FORMAT, MetaKeys.u32Value(migration.to()));
                    batch.delete(ColumnFamilies.DEFAULT, cursorKey);
                } else {
                    if (Arrays.equals(step.cursor(), cursor) && step.rows() == 0) {
                        throw new IllegalStateException("migration " + name + " made no progress at "
                                + step.position());
                    }
                    batch.put(ColumnFamilies.DEFAULT, cursorKey, new RunnerCursor(startedAt, step.cursor()).encode());
                }
                Durability durability = step.done() || (steps + 1) % SYNCED_EVERY_STEPS == 0 ? Durability.SYNC
                        : Durability.ASYNC;
                // In key order per family: RocksDB's memtable inserts are cheapest in order (KeyOrderedBatch).
                WriteBatch ops = KeyOrderedBatch.of(batch.toWriteBatch());
                committing = committer.submit(() -> store.commit(ops, durability));
                // The next step is computed while this one commits: it reads only old keys after
                // this step's cursor and families the migration never writes (TenantKeys).
                MigrationStep next = step.done() ? null : migration.step(context, step.cursor());
                await(committing);
                committing = null;
                rows += step.rows();
                steps++;
                long now = System.nanoTime();
                MigrationProgress progress = new MigrationProgress(migration.from(), migration.to(), steps, rows,
                        Duration.ofNanos(now - start), step.position(), step.done());
                LOG.debug("migration {}: step {} committed, {} rows so far, at {}", name, steps, rows, step.position());
                if (step.done()) {
                    LOG.info("store {}: now at format {}; migrated {} rows in {} steps, {} ms, {} rows/s",
                            store.directory(), migration.to(), rows, steps, progress.elapsed().toMillis(),
                            Math.round(progress.rowsPerSecond()));
                } else if (now - lastLog >= LOG_INTERVAL_NANOS) {
                    lastLog = now;
                    LOG.info("store {}: migration {}: {} rows in {} steps, {} rows/s, at {}", store.directory(), name,
                            rows, steps, Math.round(progress.rowsPerSecond()), step.position());
                }
                listener.accept(progress);
                if (step.done()) {
                    return;
                }
                cursor = step.cursor();
                step = next;
            }
        } finally {
            if (committing != null) {
                // A step failed while the one before was committing: let that commit end before the
                // caller closes the store (its outcome does not matter any more).
                try {
                    await(committing);
                } catch (RuntimeException | Error e) {
                    LOG.debug("migration {}: the commit in flight when the run failed failed too", name, e);
                }
            }
            committer.shutdownNow();
        }
    }

    /** Waits for a step's commit; rethrows what the commit threw. */
    private static void await(Future<?> commit) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    commit.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // the commit is under way and cannot be taken back: wait for it
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof Error error) {
                        throw error;
                    }
                    // What the commit threw, as if it had run on this thread (a checked one cannot: commit declares
                    // none).
                    throw cause instanceof RuntimeException r ? r
                            : new IllegalStateException("a migration step's commit failed", cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
