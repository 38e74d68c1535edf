package io.ankusa.tests.upgrade;

import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.keys.Ordinals;
import io.ankusa.queue.StoreUpgrade;
import io.ankusa.queue.deliveries.Counters;
import io.ankusa.queue.migration.FormatTwoWriter;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.tests.queue.IndexFold;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * ({@code rocksdb.blockCacheBytes}): at 10⁶ rows the hooks no longer fit the default cache, which
 * made the migration's one random hook read per row its whole cost until it read the hooks and
 * delivery sizes in key order, once per run. Each cell writes the backlog, then times
 * {@link StoreUpgrade#run} (opening the store, creating the new families and sentinels, every
 * synced step).
 *
 * <p><b>A settled store.</b> The format-2 writer fills RocksDB's level 0 faster than it is
 * compacted and closes the store with compactions pending (9–13 level-0 files in {@code hooks},
 * {@code deliveries} and {@code index}); the next open runs them, 1.2–1.5 CPU s at 10⁶ rows, inside
 * the migration's window, where a store that has been running would have settled them long
 * before its upgrade. So before the timer starts the bench opens the written store once more and
 * waits until RocksDB has no flush or compaction pending or running ({@link SettledCompactions}),
 * then closes it: RocksDB compacts only what its own triggers ask for, no full compaction that
 * would leave the migration an unrealistically tidy store. {@code
 * ankusa.bench.migrationSettle=false} leaves the wait out (the store as the writer left it, its
 * flushes and compactions still owed), {@code both} runs every RocksDB cell both ways, without the
 * wait first; the table says which is which, so a change of the bench is not taken for a faster migration.
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
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests
 * </pre>
 *
 * System properties: {@code ankusa.bench.migrationRows} (the larger backlog, default 1 000 000;
 * the smaller is a tenth), {@code ankusa.bench.backends} (comma-separated, default both),
 * {@code ankusa.bench.migrationBigCache=false} (leave out the 256 MiB cell),
 * {@code ankusa.bench.migrationSmall=false} (leave out the smaller backlog),
 * {@code ankusa.bench.migrationSettings=rocksdb.memtableBytes=67108864,…} (store settings added to
 * every cell of their backend, for experiments), {@code ankusa.bench.migrationSettle} ({@code true},
 * the default, {@code false} or {@code both}: see above), {@code ankusa.bench.dir}.
 * The goal (at least {@value #GOAL_ROWS_PER_SECOND} rows/s on RocksDB with default settings
 * at 10⁶ rows) is printed as a PASS or FAIL rule and not enforced. The bench profile runs it with
 * a fixed heap ({@code -Xms}, as the pom says): a heap that grows while the migration runs costs
 * page faults on the migrating thread.
 */
public final class MigrationBench {

    static final double MIN_ROWS_PER_SECOND = 1_000;
    /** The goal for RocksDB with its default settings at 10⁶ rows: reported, not enforced. */
    static final double GOAL_ROWS_PER_SECOND = 200_000;
    private static final int GOAL_ROWS = 1_000_000;
    static final double MAX_SLOWDOWN = 4;
    private static final int TENANTS = 10_000;
    private static final String DUE_PHASE = "phase 1 (due)";
    /** The name of the migration runner's commit thread ({@code Migrations}). */
    private static final String COMMIT_THREAD = "ankusa-migration-commit";
    /** How long the bench waits for a written store's compactions to settle before it gives up. */
    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(5);

    /** {@code ankusa.bench.migrationSettings=k=v,k=v}: store settings added to every cell of their backend. */
    private static final Map<String, String> EXTRA_SETTINGS = Arrays.stream(
            System.getProperty("ankusa.bench.migrationSettings", "").split(",")).filter(kv -> kv.contains("="))
            .collect(java.util.stream.Collectors.toMap(kv -> kv.substring(0, kv.indexOf('=')),
                    kv -> kv.substring(kv.indexOf('=') + 1)));

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** The heap committed when the bench started (-Xms), printed with the results. */
    private static final long START_HEAP_BYTES = Runtime.getRuntime().totalMemory();

    private MigrationBench() {
    }

    private record Setup(String backend, String label, Map<String, String> settings) {
    }

    private record Cell(Setup setup, long rows, boolean settled, double writeSeconds, double settleSeconds,
            double migrateSeconds, long steps, double slowdown, double threadCpuSeconds, double commitCpuSeconds,
            double processCpuSeconds) {
        double rate() {
            return rows / migrateSeconds;
        }
    }

    /** Runs the bench; see the class comment for the properties. */
    public static void main(String[] args) throws IOException {
        int large = Integer.getInteger("ankusa.bench.migrationRows", 1_000_000);
        String only = System.getProperty("ankusa.bench.backends", "");
        boolean bigCache = !"false".equals(System.getProperty("ankusa.bench.migrationBigCache"));
        boolean small = !"false".equals(System.getProperty("ankusa.bench.migrationSmall"));
        String settle = System.getProperty("ankusa.bench.migrationSettle", "true");
        List<Boolean> settleModes = switch (settle) {
            case "true" -> List.of(true);
            case "false" -> List.of(false);
            case "both" -> List.of(false, true);
            default -> throw new IllegalArgumentException("ankusa.bench.migrationSettle is true, false or both: " + settle);
        };
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
                    || Stores.provider(setup.backend()).isEmpty() || (!bigCache && !setup.settings().isEmpty())) {
                continue;
            }
            // The wait settles only RocksDB's compactions: LMDB runs once.
            List<Boolean> modes = setup.backend().equals("rocksdb") ? settleModes : List.of(false);
            if (small) {
                modes.forEach(s -> cells.add(run(root, setup, large / 10, s, failures)));
            }
            modes.forEach(s -> cells.add(run(root, setup, large, s, failures)));
        }
        System.out.println();
        Runtime runtime = Runtime.getRuntime();
        System.out.printf(Locale.ROOT, "Migration bench (2 -> 3): %,d tenants + default; Java %s, heap %d MiB at start "
                + "(max %d MiB)%n%n", TENANTS, System.getProperty("java.version"), START_HEAP_BYTES >> 20,
                runtime.maxMemory() >> 20);
        System.out.println("| store | rows | compactions settled first | steps | write v2 s | settle s | migrate s | "
                + "rows/s | CPU s, migrating thread | CPU s, commit thread | CPU s, process | "
                + "rows per CPU s of the migrating thread | due phase: last fifth / first fifth |");
        System.out.println("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Cell c : cells) {
            System.out.printf(Locale.ROOT, "| %s | %,d | %s | %,d | %.1f | %.1f | %.1f | %,.0f | %.1f | %.1f | %.1f | %,.0f | %.2f |%n",
                    c.setup().label(), c.rows(), c.settled() ? "yes" : "no", c.steps(), c.writeSeconds(),
                    c.settleSeconds(), c.migrateSeconds(), c.rate(), c.threadCpuSeconds(), c.commitCpuSeconds(),
                    c.processCpuSeconds(),
                    c.rows() / c.threadCpuSeconds(), c.slowdown());
            if (c.rate() < MIN_ROWS_PER_SECOND) {
                failures.add(c.setup().label() + ", " + c.rows() + " rows: " + Math.round(c.rate()) + " rows/s is under "
                        + MIN_ROWS_PER_SECOND);
            }
            if (c.slowdown() > MAX_SLOWDOWN) {
                failures.add(c.setup().label() + ", " + c.rows() + " rows: the due phase's last steps are "
                        + String.format(Locale.ROOT, "%.1f", c.slowdown()) + " times slower than its first ones");
            }
        }
        System.out.println();
        cells.stream().filter(c -> c.setup().backend().equals("rocksdb") && c.setup().settings().isEmpty()
                && c.rows() >= GOAL_ROWS).forEach(c -> System.out.printf(Locale.ROOT,
                "%s: %s, %,d rows, compactions %s: %,.0f rows/s, goal >= %,.0f (reported, not enforced)%n",
                c.rate() >= GOAL_ROWS_PER_SECOND ? "PASS" : "FAIL", c.setup().label(), c.rows(),
                c.settled() ? "settled first" : "not settled", c.rate(), GOAL_ROWS_PER_SECOND));
        if (!failures.isEmpty()) {
            System.out.println();
            failures.forEach(f -> System.out.println("FAIL " + f));
            System.exit(1);
        }
        System.out.println();
        System.out.println("PASS");
    }

    private static Cell run(Path root, Setup setup, int rows, boolean settle, List<String> failures) {
        Path dir = root.resolve(setup.backend() + "-" + rows);
        StoreFixtures.delete(dir);
        int due = rows * 60 / 100;
        int inflight = rows * 10 / 100;
        int dead = rows * 15 / 100;
        FormatTwoBacklog backlog = new FormatTwoBacklog(due, inflight, dead, rows - due - inflight - dead, TENANTS, 42);
        long t0 = System.nanoTime();
        backlog.write(setup.backend(), dir);
        long written = System.nanoTime();
        double settleSeconds = 0;
        if (settle) {
            settleSeconds = settle(setup, dir);
        }
        QueueConfig config = Upgrades.config(setup.backend(), dir, b -> {
            settings(setup).forEach(b::storeSetting);
            return b;
        });
        List<Long> dueStepNanos = new ArrayList<>();
        long[] last = {0, 0};
        // The runner's commit thread, found by name at the first step; its CPU time read after every step.
        long[] commitThread = {-1, 0};
        long threadCpu0 = THREADS.getCurrentThreadCpuTime();
        long processCpu0 = processCpuNanos();
        long t1 = System.nanoTime();
        StoreUpgrade.run(config, p -> {
            long nanos = p.elapsed().toNanos();
            if (p.position().equals(DUE_PHASE)) {
                dueStepNanos.add(nanos - last[1]);
            }
            last[0] = p.steps();
            last[1] = nanos;
            if (commitThread[0] < 0) {
                commitThread[0] = Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().equals(COMMIT_THREAD)).mapToLong(Thread::getId).findFirst().orElse(-2);
            }
            if (commitThread[0] >= 0) {
                commitThread[1] = Math.max(commitThread[1], THREADS.getThreadCpuTime(commitThread[0]));
            }
        });
        long t2 = System.nanoTime();
        double threadCpu = (THREADS.getCurrentThreadCpuTime() - threadCpu0) / 1e9;
        double processCpu = (processCpuNanos() - processCpu0) / 1e9;
        String cell = setup.label() + ", " + rows + " rows" + (settle ? ", compactions settled first" : "");
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
        Cell result = new Cell(setup, backlog.rows(), settle, (written - t0) / 1e9, settleSeconds, (t2 - t1) / 1e9,
                last[0], slowdown(dueStepNanos), threadCpu, commitThread[1] / 1e9, processCpu);
        System.out.printf(Locale.ROOT, "%s: written in %.1f s, migrated in %.1f s (%,.0f rows/s, %,d steps; CPU: %.1f s "
                + "on the migrating thread, %.1f s on the commit thread, %.1f s in the process)%n", cell,
                result.writeSeconds(), result.migrateSeconds(), result.rate(), result.steps(), threadCpu,
                result.commitCpuSeconds(), processCpu);
        return result;
    }

    /**
     * Opens the written format-2 store with the cell's settings, waits until RocksDB has no flush
     * or compaction pending or running, and closes it; returns the seconds that took.
     */
    private static double settle(Setup setup, Path dir) {
        long start = System.nanoTime();
        StoreOptions options = StoreOptions.existing(dir, FormatTwoWriter.families());
        for (Map.Entry<String, String> setting : settings(setup).entrySet()) {
            options = options.with(setting.getKey(), setting.getValue());
        }
        try (Store store = Stores.open(setup.backend(), options)) {
            SettledCompactions.Settled settled = SettledCompactions.await(store, SETTLE_TIMEOUT);
            System.out.printf(Locale.ROOT, "%s: compactions settled in %.1f s (level-0 files %d -> %d)%n", dir,
                    settled.waitedNanos() / 1e9, settled.level0Before(), settled.level0After());
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** The cell's store settings plus {@code ankusa.bench.migrationSettings} of its backend. */
    private static Map<String, String> settings(Setup setup) {
        Map<String, String> out = new java.util.LinkedHashMap<>(setup.settings());
        EXTRA_SETTINGS.forEach((k, v) -> {
            if (k.startsWith(setup.backend() + ".")) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** CPU time of the whole process (every thread: RocksDB's flushes and compactions, the JIT, the GC). */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
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
