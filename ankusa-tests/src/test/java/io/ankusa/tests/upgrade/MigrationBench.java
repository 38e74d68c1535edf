package io.ankusa.tests.upgrade;

import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.keys.Ordinals;
import io.ankusa.queue.StoreUpgrade;
import io.ankusa.queue.deliveries.Counters;
import io.ankusa.store.Store;
import io.ankusa.store.Stores;
import io.ankusa.tests.queue.IndexFold;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The migration bench: how many rows per second the 2 → 3 migration moves, for a format-2 backlog
 * of 10⁵ and 10⁶ index rows (60 % due, a quarter of them retries, 10 % inflight, 15 % dead, 15 %
 * archive obligations; one single-sink hook per row; 10 000 tenants plus default), on lmdb and on
 * rocksdb twice: with the default 64 MiB block cache and with 256 MiB
 * ({@code rocksdb.blockCacheBytes}), because the migration reads one hook per row at random and
 * at 10⁶ rows the hooks no longer fit the default cache. Each cell writes the backlog, then times
 * {@link StoreUpgrade#run} (opening the store, creating the new families and sentinels, every
 * synced step).
 *
 * <p>Self-checking: after each run the aggregate counters must equal the rows written and a fold
 * of the whole store must equal every tenant's counters (structural invariants included). It
 * exits non-zero when a check fails, when a cell moves fewer than {@value #MIN_ROWS_PER_SECOND}
 * rows/s, or when the last fifth of the due phase's steps take more than four times as long as its
 * first fifth: a migration that reseeked from the family's start would wade through ever more
 * tombstones and slow down step after step (quadratic), while the store's size is the same for all
 * of them.
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-tests -am -DskipTests
 * </pre>
 *
 * System properties: {@code ankusa.bench.migrationRows} (the larger backlog, default 1 000 000;
 * the smaller is a tenth), {@code ankusa.bench.backends} (comma-separated, default both),
 * {@code ankusa.bench.dir}.
 */
public final class MigrationBench {

    static final double MIN_ROWS_PER_SECOND = 1_000;
    static final double MAX_SLOWDOWN = 4;
    private static final int TENANTS = 10_000;
    private static final String DUE_PHASE = "phase 1 (due)";

    private MigrationBench() {
    }

    private record Setup(String backend, String label, Map<String, String> settings) {
    }

    private record Cell(Setup setup, long rows, double writeSeconds, double migrateSeconds, long steps, double slowdown) {
        double rate() {
            return rows / migrateSeconds;
        }
    }

    /** Runs the bench; see the class comment for the properties. */
    public static void main(String[] args) throws IOException {
        int large = Integer.getInteger("ankusa.bench.migrationRows", 1_000_000);
        String only = System.getProperty("ankusa.bench.backends", "");
        List<Setup> setups = List.of(
                new Setup("rocksdb", "rocksdb, 64 MiB block cache (default)", Map.of()),
                new Setup("rocksdb", "rocksdb, 256 MiB block cache", Map.of("rocksdb.blockCacheBytes", "268435456")),
                new Setup("lmdb", "lmdb", Map.of()));
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))).resolve("migration"));
        List<String> failures = new ArrayList<>();
        List<Cell> cells = new ArrayList<>();
        for (Setup setup : setups) {
            if ((!only.isBlank() && !Arrays.asList(only.split(",")).contains(setup.backend()))
                    || Stores.provider(setup.backend()).isEmpty()) {
                continue;
            }
            cells.add(run(root, setup, large / 10, failures));
            cells.add(run(root, setup, large, failures));
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Migration bench (2 -> 3): %,d tenants + default; synced steps of 500 rows; "
                + "Java %s%n%n", TENANTS, System.getProperty("java.version"));
        System.out.println("| store | rows | steps | write v2 s | migrate s | rows/s | due phase: last fifth / first fifth |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (Cell c : cells) {
            System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %.1f | %.1f | %,.0f | %.2f |%n", c.setup().label(), c.rows(),
                    c.steps(), c.writeSeconds(), c.migrateSeconds(), c.rate(), c.slowdown());
            if (c.rate() < MIN_ROWS_PER_SECOND) {
                failures.add(c.setup().label() + ", " + c.rows() + " rows: " + Math.round(c.rate()) + " rows/s is under "
                        + MIN_ROWS_PER_SECOND);
            }
            if (c.slowdown() > MAX_SLOWDOWN) {
                failures.add(c.setup().label() + ", " + c.rows() + " rows: the due phase's last steps are "
                        + String.format(Locale.ROOT, "%.1f", c.slowdown()) + " times slower than its first ones");
            }
        }
        if (!failures.isEmpty()) {
            System.out.println();
            failures.forEach(f -> System.out.println("FAIL " + f));
            System.exit(1);
        }
        System.out.println();
        System.out.println("PASS");
    }

    private static Cell run(Path root, Setup setup, int rows, List<String> failures) {
        Path dir = root.resolve(setup.backend() + "-" + rows);
        StoreFixtures.delete(dir);
        int due = rows * 60 / 100;
        int inflight = rows * 10 / 100;
        int dead = rows * 15 / 100;
        FormatTwoBacklog backlog = new FormatTwoBacklog(due, inflight, dead, rows - due - inflight - dead, TENANTS, 42);
        long t0 = System.nanoTime();
        backlog.write(setup.backend(), dir);
        long t1 = System.nanoTime();
        QueueConfig config = Upgrades.config(setup.backend(), dir, b -> {
            setup.settings().forEach(b::storeSetting);
            return b;
        });
        List<Long> dueStepNanos = new ArrayList<>();
        long[] last = {0, 0};
        StoreUpgrade.run(config, p -> {
            long nanos = p.elapsed().toNanos();
            if (p.position().equals(DUE_PHASE)) {
                dueStepNanos.add(nanos - last[1]);
            }
            last[0] = p.steps();
            last[1] = nanos;
        });
        long t2 = System.nanoTime();
        String cell = setup.label() + ", " + rows + " rows";
        try (Store store = Upgrades.openRaw(setup.backend(), dir)) {
            QueueStats stats = Counters.read(store, Ordinals.AGGREGATE).queueStats();
            if (stats.pending() + stats.scheduled() != backlog.due() || stats.inflight() != backlog.inflight()
                    || stats.dead() != backlog.dead() || stats.archivePending() != backlog.archive()) {
                failures.add(cell + ": aggregate " + stats + " does not match the backlog " + backlog);
            }
            try {
                IndexFold.of(store).assertCountersMatch(store);
            } catch (AssertionError e) {
                failures.add(cell + ": counters differ from the fold: " + e.getMessage());
            }
        }
        StoreFixtures.delete(dir);
        Cell result = new Cell(setup, backlog.rows(), (t1 - t0) / 1e9, (t2 - t1) / 1e9, last[0], slowdown(dueStepNanos));
        System.out.printf(Locale.ROOT, "%s: written in %.1f s, migrated in %.1f s (%,.0f rows/s, %,d steps)%n", cell,
                result.writeSeconds(), result.migrateSeconds(), result.rate(), result.steps());
        return result;
    }

    /** Mean step time of the last fifth of the due phase's steps over that of its first fifth (1 when too few). */
    private static double slowdown(List<Long> stepNanos) {
        int fifth = stepNanos.size() / 5;
        if (fifth < 10) {
            return 1;
        }
        double first = stepNanos.subList(0, fifth).stream().mapToLong(Long::longValue).average().orElse(1);
        double lastFifth = stepNanos.subList(stepNanos.size() - fifth, stepNanos.size()).stream()
                .mapToLong(Long::longValue).average().orElse(1);
        return lastFifth / first;
    }
}
