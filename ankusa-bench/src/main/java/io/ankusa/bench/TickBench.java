package io.ankusa.bench;

import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.ledger.DeliveryLedger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The gauges bench and the dispatch tick bench of the spec ("Benches"), with the format-2 gauge as
 * a baseline, on each backend.
 *
 * <p>Cells: 10³, 10⁴, 10⁵, 10⁶ queued rows (over {@value BenchQueue#ACTIVE_TENANTS} tenants, all
 * due); and 10, 10³, 10⁵ tenants of which {@value BenchQueue#ACTIVE_TENANTS} have due work
 * ({@value #ROWS_PER_ACTIVE_TENANT} rows each) and every other one a single row, a retry scheduled
 * a day ahead or a dead letter ({@link BenchQueue}). While a cell is measured another thread
 * commits {@value #MERGING_BATCHES_PER_SECOND} merging batches a second ({@link MergingLoad}). A
 * cell is the 10th percentile of 1 000 ticks, the lowest of three rounds ({@link TickTimer}).
 *
 * <ul>
 * <li><b>gauge tick</b>: {@link Pipeline#gauges()}, what the dispatcher reports every gauge
 *     interval — the aggregate's six counters in one multi-get, the oldest due age from the active
 *     index, the tenant count, and the top tenants by pending (the first 10 000 distinct tenants of
 *     the active markers up to now, their pending counters in one read).</li>
 * <li><b>dispatch tick</b>: {@link DeliveryLedger#activeTenants} (up to 4 096 markers), then
 *     {@link DeliveryLedger#dueForTenant} for each distinct tenant from its scan floor (up to 128
 *     rows each; {@link DispatchTick}).</li>
 * <li><b>aggregate read</b> (shown, not ruled): {@link io.ankusa.queue.Queue#stats()} alone, the six
 *     counters of ordinal 0 in one multi-get, one round of 1 000 reads under the same load: the read
 *     that would grow if merge operands piled up.</li>
 * <li><b>format-2 gauge</b>: {@link FoldingGauge}, timed over as many ticks as fit in 3 s (at least 3).</li>
 * </ul>
 *
 * <p>Rules ({@link TickRule}), per backend and per tick: the slowest cell within 2× of the fastest
 * (counted as at least 1 ms) and under 50 ms. Also a failure: a store whose counters differ from a
 * fold of its index (checked before each cell and after each axis, when the merging load's
 * transitions are done), a tick that visits other than the active tenants, or a merging load that falls
 * under 95 % of its rate while the gauge or the dispatch ticks are measured (the baseline is timed
 * with the load running too, without a rate requirement), or gauges that do not describe the store.
 * A cell whose load fell short (the machine is shared) is measured again, up to three attempts.
 * A backend that cannot commit 3 000 of these batches a second at all — the load, unpaced for 3 s
 * on the first store, makes fewer than twice that — runs the load as fast as it goes, with no rate
 * requirement; the table shows what it reached. LMDB usually is one here: every commit of its write
 * transaction fdatasyncs its data pages, unsynced or not, so it commits from a few hundred to a few
 * thousand batches a second on this shared disk; and it has no merge operands to pile up (a merge is
 * read, add and put inside the write transaction). Prints Markdown tables; exits non-zero when
 * anything fails.
 *
 * <p>System properties: {@code ankusa.bench.backends} (default {@code rocksdb,lmdb}),
 * {@code ankusa.bench.dir}, {@code ankusa.bench.maxRows} (default 1 000 000),
 * {@code ankusa.bench.maxTenants} (default 100 000), {@code ankusa.bench.mergingRate} (default 3 000).
 */
public final class TickBench {

    static final double MERGING_BATCHES_PER_SECOND = 3_000;
    static final int ROWS_PER_ACTIVE_TENANT = 1_000;
    static final long FOLD_BUDGET_MILLIS = 3_000;
    static final long COMMIT_BOUND_PROBE_MILLIS = 3_000;
    static final double REQUIRED_SHARE = 0.95;
    static final int ATTEMPTS = 3;

    private TickBench() {
    }

    /** One measured cell. */
    record Cell(String backend, String axis, long rows, long tenants, double gaugeMillis, double aggregateMillis,
            double dispatchMillis,
            double foldMillis, double gaugeMerging, double dispatchMerging) {
    }

    /** The merging load's rate between two calls. */
    private static final class Rate {
        private final MergingLoad load;
        private long batches;
        private long nanos;

        Rate(MergingLoad load) {
            this.load = load;
            this.batches = load.batches();
            this.nanos = System.nanoTime();
        }

        double next() {
            long b = load.batches();
            long t = System.nanoTime();
            double rate = (b - batches) / ((t - nanos) / 1e9);
            batches = b;
            nanos = t;
            return rate;
        }
    }

    /** Runs the bench; see the class comment. */
    public static void main(String[] args) throws IOException {
        List<String> backends = Arrays.stream(System.getProperty("ankusa.bench.backends", "rocksdb,lmdb").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (backends.isEmpty()) {
            backends = List.of("rocksdb", "lmdb");
        }
        int maxRows = Integer.getInteger("ankusa.bench.maxRows", 1_000_000);
        int maxTenants = Integer.getInteger("ankusa.bench.maxTenants", 100_000);
        double rate = Double.parseDouble(System.getProperty("ankusa.bench.mergingRate",
                String.valueOf(MERGING_BATCHES_PER_SECOND)));
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        List<String> failures = new ArrayList<>();
        List<Cell> cells = new ArrayList<>();
        for (String backend : backends) {
            Path rowsDir = Files.createTempDirectory(root, "ticks-rows-" + backend + "-");
            boolean commitBound;
            try (BenchQueue q = BenchQueue.open(backend, rowsDir, Map.of())) {
                long have = 1_000;
                q.addDueRows((int) have);
                commitBound = commitBound(q, backend, rate);
                for (long rows = 1_000; rows <= maxRows; rows *= 10) {
                    if (rows > have) {
                        q.addDueRows((int) (rows - have));
                        have = rows;
                    }
                    cells.add(measure(q, backend, "rows", rate, commitBound, failures));
                }
                failures.addAll(q.verify(backend + " rows axis, after every measurement and its merging load"));
            } finally {
                delete(rowsDir);
            }
            Path tenantsDir = Files.createTempDirectory(root, "ticks-tenants-" + backend + "-");
            try (BenchQueue q = BenchQueue.open(backend, tenantsDir, Map.of())) {
                q.addDueRows(BenchQueue.ACTIVE_TENANTS * ROWS_PER_ACTIVE_TENANT);
                long have = BenchQueue.ACTIVE_TENANTS;
                for (long tenants : new long[] {10, 1_000, 100_000}) {
                    if (tenants > maxTenants) {
                        break;
                    }
                    q.addIdleTenants((int) (tenants - have));
                    have = tenants;
                    cells.add(measure(q, backend, "tenants", rate, commitBound, failures));
                }
                failures.addAll(q.verify(backend + " tenants axis, after every measurement and its merging load"));
            } finally {
                delete(tenantsDir);
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Tick benches: cell = p10 of %d ticks, lowest of %d rounds, %,.0f merging batches/s "
                + "committed meanwhile; %d active tenants; Java %s%n%n", TickTimer.TICKS, TickTimer.ROUNDS, rate,
                BenchQueue.ACTIVE_TENANTS, System.getProperty("java.version"));
        System.out.println(table(cells));
        for (String backend : backends) {
            List<Cell> mine = cells.stream().filter(c -> c.backend().equals(backend)).toList();
            if (mine.isEmpty()) {
                continue;
            }
            List<Double> gauge = mine.stream().map(Cell::gaugeMillis).toList();
            List<Double> dispatch = mine.stream().map(Cell::dispatchMillis).toList();
            System.out.println(TickRule.verdict(backend + " gauge tick", gauge));
            System.out.println(TickRule.verdict(backend + " dispatch tick", dispatch));
            TickRule.violation(backend + " gauge tick", gauge).ifPresent(failures::add);
            TickRule.violation(backend + " dispatch tick", dispatch).ifPresent(failures::add);
        }
        if (!failures.isEmpty()) {
            System.out.println();
            failures.forEach(f -> System.out.println("FAILED: " + f));
            System.exit(1);
        }
        System.out.println("All tick bench rules hold.");
    }

    /**
     * Whether {@code backend} cannot commit {@code rate} merging batches a second at all: the load,
     * unpaced for 3 s on the first store, makes fewer than twice that. Such a backend runs the load
     * as fast as it goes, with no rate requirement.
     */
    private static boolean commitBound(BenchQueue q, String backend, double rate) {
        double ceiling = MergingLoad.ceiling(q, COMMIT_BOUND_PROBE_MILLIS);
        boolean bound = ceiling < 2 * rate;
        System.out.printf(Locale.ROOT, "%s: the merging load alone commits %,.0f batches/s%s%n", backend, ceiling,
                bound ? String.format(Locale.ROOT, ", under twice %,.0f: no rate requirement on this backend", rate) : "");
        return bound;
    }

    private static Cell measure(BenchQueue q, String backend, String axis, double rate, boolean commitBound,
            List<String> failures) {
        long rows = q.dueRows() + q.idleTenants();
        long tenants = q.queue().tenantCount();
        String label = String.format(Locale.ROOT, "%s %s cell (%,d rows, %,d tenants)", backend, axis, rows, tenants);
        failures.addAll(q.verify(label));
        DeliveryLedger ledger = q.ledger();
        DispatchTick tick = new DispatchTick(ledger);
        tick.run(q.now());
        if (tick.lastVisited() != BenchQueue.ACTIVE_TENANTS) {
            failures.add(label + ": the dispatch tick visited " + tick.lastVisited() + " tenants, expected "
                    + BenchQueue.ACTIVE_TENANTS);
        }
        double required = commitBound ? 0 : REQUIRED_SHARE * rate;
        Cell cell = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            cell = attempt(q, backend, axis, rows, tenants, tick, rate, failures);
            System.out.printf(Locale.ROOT, "%s: gauge %.3f ms (aggregate read %.3f ms), dispatch %.3f ms, format-2 "
                    + "gauge %.3f ms; merging batches/s %,.0f and %,.0f%n", label, cell.gaugeMillis(),
                    cell.aggregateMillis(), cell.dispatchMillis(), cell.foldMillis(), cell.gaugeMerging(),
                    cell.dispatchMerging());
            if (Math.min(cell.gaugeMerging(), cell.dispatchMerging()) >= required) {
                break;
            }
            if (attempt == ATTEMPTS) {
                failures.add(String.format(Locale.ROOT, "%s: in %d attempts the merging load never held %,.0f "
                        + "batches/s (95 %% of %,.0f) through both measurements; last %,.0f and %,.0f", label, ATTEMPTS,
                        required, rate, cell.gaugeMerging(), cell.dispatchMerging()));
            } else {
                System.out.printf(Locale.ROOT, "%s: the merging load fell under %,.0f batches/s; measuring again%n",
                        label, required);
            }
        }
        return cell;
    }

    /** One measurement of a cell with the merging load running. */
    private static Cell attempt(BenchQueue q, String backend, String axis, long rows, long tenants, DispatchTick tick,
            double rate, List<String> failures) {
        long now = q.now();
        Pipeline pipeline = Pipeline.builder(q.queue(), d -> CompletableFuture.completedFuture(SinkOutcome.delivered()))
                .manual();
        Gauges gauges = pipeline.gauges();
        if (gauges.pending() != q.dueRows() || gauges.topTenantsByPending().size() != BenchQueue.ACTIVE_TENANTS
                || gauges.tenants() != tenants || gauges.oldestDueAge().isEmpty()) {
            failures.add(backend + " " + axis + ": gauges " + gauges + " do not describe the store");
        }
        MergingLoad load = MergingLoad.start(q, rate);
        try {
            Rate r = new Rate(load);
            double gauge = TickTimer.cellMillis(() -> gaugeTick(pipeline));
            double aggregate = TickTimer.percentileMillis(() -> q.queue().stats().pending(), TickTimer.TICKS, 10);
            double gaugeRate = r.next();
            double dispatch = TickTimer.cellMillis(() -> tick.run(now));
            double dispatchRate = r.next();
            double fold = TickTimer.boundedMillis(() -> FoldingGauge.tick(q.store()), FOLD_BUDGET_MILLIS, 3);
            return new Cell(backend, axis, rows, tenants, gauge, aggregate, dispatch, fold, gaugeRate, dispatchRate);
        } finally {
            load.stop();
            pipeline.close();
        }
    }

    /** The gauge tick (see the class comment). */
    static long gaugeTick(Pipeline pipeline) {
        Gauges g = pipeline.gauges();
        return g.pending() + g.oldestDueAge().map(d -> d.toMillis()).orElse(0L) + g.tenants()
                + g.topTenantsByPending().size();
    }

    static String table(List<Cell> cells) {
        StringBuilder out = new StringBuilder()
                .append("| backend | axis | queued rows | tenants | gauge tick ms | of which aggregate read ms "
                        + "| dispatch tick ms | format-2 gauge ms | format-2 / gauge | merging batches/s (gauge, dispatch) |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Cell c : cells) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %,d | %,d | %.3f | %.3f | %.3f | %,.3f | %,.0f× | %,.0f, %,.0f |%n",
                    c.backend(), c.axis(), c.rows(), c.tenants(), c.gaugeMillis(), c.aggregateMillis(), c.dispatchMillis(),
                    c.foldMillis(), c.foldMillis() / c.gaugeMillis(), c.gaugeMerging(), c.dispatchMerging()));
        }
        return out.toString();
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
