package io.ankusa.bench;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Rate;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.store.Stores;
import io.ankusa.tests.queue.MutableClock;
import io.ankusa.tests.queue.QueueUnderTest;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The fair-dispatch bench, on rocksdb and lmdb, each cell on a fresh queue with a
 * started pipeline on the wall clock unless said otherwise:
 *
 * <ul>
 *   <li><b>Head-of-line</b>: one tenant ingests a flood of due rows (no-op sink), the pipeline
 *       starts, and once the flood is being delivered 10 quiet tenants ingest one hook each, in 3
 *       rounds; the quiet hooks' ingest-to-delivery latency (p50, max) against the same with no
 *       flood. Goal: the flood changes it by at most one tick (200 ms idle interval).</li>
 *   <li><b>Weighted share</b>: three saturated tenants of weights 1, 2 and 4, a sink that answers
 *       after 1 ms, 8 deliveries at once; their deliveries over 10 s against 1:2:4 (goal ±10 %).</li>
 *   <li><b>Rate limit</b>: a tenant limited to 100/s (burst 10) with 10 000 due rows beside two
 *       unlimited tenants with 30 000 each (no-op sink), for {@code ankusa.bench.rateSeconds}
 *       (default 10); the limited tenant's deliveries in each full second after the first (goal
 *       100 ± 5; min, p10, median, p90, max and the mean) and the others' rate.</li>
 *   <li><b>Tick cost</b>, on a hand-moved clock: a dispatch tick that delivers one new hook for
 *       each of 8 quiet tenants, and a gauge measurement ({@code Pipeline.gauges()}) and the
 *       aggregate read ({@code Queue.stats()}), with behind them: nothing; 8 tenants with due work
 *       (2 s of backlog: the baseline); 8 tenants' backlog over an hour (28 800 markers); 10 000
 *       tenants with one row each (in flight, nothing due); 10 000 tenants with due work (2 rows
 *       each). Backlogged tenants are held at their in-flight limit (1, a sink that never answers
 *       them), so every cell serves the same 8 tenants. The backlogs are built once per backend
 *       and each cell runs on a copy; the cells run in interleaved rounds
 *       ({@code ankusa.bench.tickRounds}, default 3). Goal: the median of the rounds' p50 within
 *       1.5× of the cell of 8 tenants with due work, and the gauges with 10 000 tenants with due
 *       work at most 2 ms.</li>
 *   <li><b>Cost of fairness</b> ({@link CostOfFairness}): 100 000 no-op deliveries over 10 000
 *       tenants with the scheduler's fairness against the same scheduler with a turn larger than
 *       a tick (no sharing), in alternating rounds; goal: at least 0.9× its throughput.</li>
 * </ul>
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.only=FairnessBench
 * </pre>
 *
 * System properties: {@code ankusa.bench.backends}, {@code ankusa.bench.dir},
 * {@code ankusa.bench.cells} (comma-separated, default {@code hol,share,rate,tick,cost}),
 * {@code ankusa.bench.floods} (comma-separated flood sizes, default {@code 100000,1000000}; the
 * million-row flood's ingest takes about a minute on 2 loaded cores), {@code ankusa.bench.shareSeconds}
 * (default 10), {@code ankusa.bench.rateSeconds} (default 10), {@code ankusa.bench.ticks} (measured
 * ticks per tick-cost cell, default 200),
 * {@code ankusa.bench.tickRounds} (default 3), {@code ankusa.bench.costRounds} (default 3),
 * {@code ankusa.bench.costEndpointConcurrency} (default unlimited).
 * Prints Markdown tables with the load average; exits non-zero when a goal is missed.
 */
public final class FairnessBench {

    private static final int QUIET = 10;
    private static final int ROUNDS = 3;

    private FairnessBench() {
    }

    /** Runs the bench; see the class comment. */
    public static void main(String[] args) throws Exception {
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        String backends = System.getProperty("ankusa.bench.backends", "");
        List<String> failures = new ArrayList<>();
        List<String> hol = new ArrayList<>();
        List<String> share = new ArrayList<>();
        List<String> rate = new ArrayList<>();
        List<String> ticks = new ArrayList<>();
        List<String> tickSpread = new ArrayList<>();
        List<String> cost = new ArrayList<>();
        List<String> cells = List.of(System.getProperty("ankusa.bench.cells", "hol,share,rate,tick,cost").split(","));
        int[] floods = Arrays.stream(System.getProperty("ankusa.bench.floods", "100000,1000000").split(","))
                .map(String::strip).mapToInt(Integer::parseInt).toArray();
        for (String backend : Stream.of("rocksdb", "lmdb").filter(b -> Stores.provider(b).isPresent())
                .filter(b -> backends.isBlank() || List.of(backends.split(",")).contains(b)).toList()) {
            if (cells.contains("hol")) {
                double[] base = headOfLine(root, backend, 0, hol);
                for (int flood : floods) {
                    double[] with = headOfLine(root, backend, flood, hol);
                    if (with[1] > base[1] + 200 + 50) {
                        failures.add(backend + " head-of-line: a flood of " + flood + " moved the quiet max from "
                                + base[1] + " ms to " + with[1] + " ms (more than one tick)");
                    }
                }
            }
            if (cells.contains("share")) {
                weightedShare(root, backend, share, failures);
            }
            if (cells.contains("rate")) {
                rateLimit(root, backend, rate, failures);
            }
            if (cells.contains("tick")) {
                tickCost(root, backend, ticks, tickSpread, failures);
            }
            if (cells.contains("cost")) {
                CostOfFairness.run(root, backend, cost, failures);
            }
        }
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        System.out.println();
        System.out.printf(Locale.ROOT, "Fairness bench, Java %s, load average %.2f at the end%n%n",
                System.getProperty("java.version"), load);
        System.out.println("Head-of-line (quiet tenants' ingest-to-delivery, 10 tenants x 3 rounds, no-op sink):\n");
        System.out.println("| backend | flood rows | flood ingest s | quiet p50 ms | quiet max ms |");
        System.out.println("|---|---:|---:|---:|---:|");
        hol.forEach(System.out::println);
        System.out.println("\nWeighted share (weights 1:2:4, 1 ms sink, 8 at once):\n");
        System.out.println("| backend | seconds | w1 | w2 | w4 | w2/w1 | w4/w1 |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        share.forEach(System.out::println);
        System.out.println("\nRate limit (100/s, burst 10, beside two unlimited tenants; per second after the first):\n");
        System.out.println("| backend | limited per second | min | p10 | median | p90 | max | mean /s | others deliveries/s |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        rate.forEach(System.out::println);
        System.out.println("\nTick cost (8 quiet tenants served per tick; ms; one row per cell and round):\n");
        System.out.println("| backend | behind the quiet tenants | markers | dispatch p50 | dispatch p99 | gauges p50 | gauges p99 | aggregate p50 | oldest due p50 |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        ticks.forEach(System.out::println);
        System.out.println("\nTick cost over the rounds (median of the rounds' p50, min-max; ratio of medians to the cell of 8 tenants"
                + " with due work, and to the cell with nothing due):\n");
        System.out.println("| backend | behind the quiet tenants | dispatch p50 ms | spread | ratio | ratio to nothing | gauges p50 ms"
                + " | spread | ratio | ratio to nothing |");
        System.out.println("|---|---|---:|---|---:|---:|---:|---|---:|---:|");
        tickSpread.forEach(System.out::println);
        System.out.println("\nCost of fairness (" + CostOfFairness.describe() + "):\n");
        System.out.println(CostOfFairness.HEADER);
        cost.forEach(System.out::println);
        if (!failures.isEmpty()) {
            System.out.println();
            failures.forEach(f -> System.out.println("FAIL " + f));
            System.exit(1);
        }
    }

    static void ingestMany(Queue queue, String tenant, int count, String prefix) throws InterruptedException {
        Semaphore inFlight = new Semaphore(8_192);
        AtomicLong refused = new AtomicLong();
        for (int i = 0; i < count; i++) {
            inFlight.acquire();
            queue.ingest(Hook.builder().id(prefix + i).sourceId("bench").tenantId(tenant).payload("{}").sinks(0).build())
                    .whenComplete((r, e) -> {
                        if (e != null) {
                            refused.incrementAndGet();
                        }
                        inFlight.release();
                    });
        }
        if (!inFlight.tryAcquire(8_192, 30, TimeUnit.MINUTES) || refused.get() != 0) {
            throw new IllegalStateException(refused.get() + " hooks refused at ingest");
        }
    }

    /** Quiet p50 and max in ms. */
    private static double[] headOfLine(Path root, String backend, int flood, List<String> out) throws Exception {
        Path dir = Files.createTempDirectory(root, "fair-hol-" + backend + "-");
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).build())) {
            long t0 = System.nanoTime();
            ingestMany(queue, "flood", flood, "f");
            double ingestSeconds = (System.nanoTime() - t0) / 1e9;
            Map<String, Long> sent = new ConcurrentHashMap<>();
            Map<String, Long> delivered = new ConcurrentHashMap<>();
            AtomicLong floodDone = new AtomicLong();
            Pipeline pipeline = Pipeline.builder(queue, d -> {
                if (d.tenantId().equals("flood")) {
                    floodDone.incrementAndGet();
                } else {
                    delivered.put(d.hookId(), System.nanoTime());
                }
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }).start();
            try {
                while (flood > 0 && floodDone.get() < Math.min(1_000, flood)) {
                    Thread.onSpinWait();
                }
                for (int round = 0; round < ROUNDS; round++) {
                    for (int q = 0; q < QUIET; q++) {
                        String id = "q" + round + "-" + q;
                        sent.put(id, System.nanoTime());
                        queue.ingest(Hook.builder().id(id).sourceId("bench").tenantId("quiet" + q).payload("{}").sinks(0)
                                .build()).join();
                    }
                    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
                    while (delivered.size() < (round + 1) * QUIET && System.nanoTime() < deadline) {
                        Thread.sleep(1);
                    }
                }
                double floodLeft = flood - floodDone.get();
                double[] ms = sent.entrySet().stream()
                        .mapToDouble(e -> (delivered.getOrDefault(e.getKey(), Long.MAX_VALUE) - e.getValue()) / 1e6).sorted()
                        .toArray();
                double p50 = ms[ms.length / 2];
                double max = ms[ms.length - 1];
                progress(out, String.format(Locale.ROOT, "| %s | %,d | %.1f | %.1f | %.1f |", backend, flood, ingestSeconds, p50,
                        max) + (flood > 0 ? String.format(Locale.ROOT, " (flood rows left when the last quiet hook was delivered: %,.0f)", floodLeft) : ""));
                return new double[] {p50, max};
            } finally {
                pipeline.close();
            }
        } finally {
            delete(dir);
        }
    }

    private static void weightedShare(Path root, String backend, List<String> out, List<String> failures) throws Exception {
        int seconds = Integer.getInteger("ankusa.bench.shareSeconds", 10);
        Path dir = Files.createTempDirectory(root, "fair-share-" + backend + "-");
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT, Map.of(
                "w1", TenantPolicy.DEFAULT.withWeight(1), "w2", TenantPolicy.DEFAULT.withWeight(2),
                "w4", TenantPolicy.DEFAULT.withWeight(4)));
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).tenantPolicies(policies).build())) {
            // 8 at once, 1 ms each: at most ~8 000/s; w4 takes 4/7 of it.
            int each = 5_000 * seconds;
            for (String t : List.of("w1", "w2", "w4")) {
                ingestMany(queue, t, each, t + "-");
            }
            Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
            Function<Delivery, CompletableFuture<SinkOutcome>> sink = d -> {
                counts.computeIfAbsent(d.tenantId(), k -> new AtomicLong()).incrementAndGet();
                return CompletableFuture.supplyAsync(SinkOutcome::delivered,
                        CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS));
            };
            long[] at;
            Pipeline pipeline = Pipeline.builder(queue, sink::apply).concurrency(8).start();
            try {
                Thread.sleep(seconds * 1000L);
                at = new long[] {count(counts, "w1"), count(counts, "w2"), count(counts, "w4")};
            } finally {
                pipeline.close();
            }
            double r2 = (double) at[1] / at[0];
            double r4 = (double) at[2] / at[0];
            progress(out, String.format(Locale.ROOT, "| %s | %d | %,d | %,d | %,d | %.2f | %.2f |", backend, seconds, at[0], at[1],
                    at[2], r2, r4));
            double unit = (at[0] + at[1] + at[2]) / 7.0;
            for (int i = 0; i < 3; i++) {
                double expected = unit * (1 << i);
                if (Math.abs(at[i] - expected) > expected * 0.10) {
                    failures.add(backend + " weighted share: w" + (1 << i) + " delivered " + at[i] + ", expected "
                            + Math.round(expected) + " ±10 %");
                }
            }
            if (at[2] >= each) {
                failures.add(backend + " weighted share: w4 ran out of rows (not saturated)");
            }
        } finally {
            delete(dir);
        }
    }

    private static long count(Map<String, AtomicLong> counts, String tenant) {
        AtomicLong c = counts.get(tenant);
        return c == null ? 0 : c.get();
    }

    private static void rateLimit(Path root, String backend, List<String> out, List<String> failures) throws Exception {
        Path dir = Files.createTempDirectory(root, "fair-rate-" + backend + "-");
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT,
                Map.of("limited", TenantPolicy.DEFAULT.withDeliveryRate(new Rate(100, 10))));
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).tenantPolicies(policies).build())) {
            ingestMany(queue, "limited", 10_000, "l");
            ingestMany(queue, "other1", 30_000, "a");
            ingestMany(queue, "other2", 30_000, "b");
            List<Long> limitedAt = new ArrayList<>();
            AtomicLong others = new AtomicLong();
            AtomicLong othersLast = new AtomicLong();
            long start;
            int seconds = Integer.getInteger("ankusa.bench.rateSeconds", 10);
            try (Pipeline pipeline = Pipeline.builder(queue, d -> {
                if (d.tenantId().equals("limited")) {
                    synchronized (limitedAt) {
                        limitedAt.add(System.nanoTime());
                    }
                } else {
                    others.incrementAndGet();
                    othersLast.set(System.nanoTime());
                }
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }).manual()) {
                start = System.nanoTime();
                pipeline.start();
                Thread.sleep(seconds * 1000L);
            }
            long[] perSecond = new long[seconds];
            synchronized (limitedAt) {
                for (long t : limitedAt) {
                    int s = (int) ((t - start) / 1_000_000_000L);
                    if (s < perSecond.length) {
                        perSecond[s]++;
                    }
                }
            }
            // The first second holds the start and the first burst: seconds 2..n are the steady state.
            long[] steady = Arrays.copyOfRange(perSecond, 1, seconds);
            long[] sorted = steady.clone();
            Arrays.sort(sorted);
            double mean = Arrays.stream(steady).sum() / (double) steady.length;
            double othersRate = others.get() / Math.max(1e-9, (othersLast.get() - start) / 1e9);
            progress(out, String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %d | %.1f | %,.0f |", backend,
                    Arrays.toString(steady), sorted[0], sorted[(int) Math.floor(0.1 * (sorted.length - 1))],
                    sorted[sorted.length / 2], sorted[(int) Math.ceil(0.9 * (sorted.length - 1))], sorted[sorted.length - 1],
                    mean, othersRate));
            for (long n : steady) {
                if (Math.abs(n - 100) > 5) {
                    failures.add(backend + " rate limit: " + n + " deliveries in a second, expected 100 ± 5");
                }
            }
        } finally {
            delete(dir);
        }
    }

    /**
     * The three tick cells, {@code ankusa.bench.tickRounds} times (default 3), interleaved (each
     * round runs the three cells one after the other), so that a load that moves during the run
     * moves every cell; the rule is on the median of the rounds' p50.
     */
    private static void tickCost(Path root, String backend, List<String> out, List<String> spread, List<String> failures)
            throws Exception {
        int rounds = Integer.getInteger("ankusa.bench.tickRounds", 3);
        // Cell 1 is the baseline of the rule: 8 tenants with due work (two rows each, one held in
        // flight), the same 8 tenants as the hour cell with 2 seconds of backlog instead of 3 600.
        // Cell 0 (nothing due behind the quiet tenants) is shown beside it, outside the rule.
        String[] labels = {"nothing (8 quiet tenants only)", "8 tenants with due work (2 s)", "8 tenants' backlog over an hour",
            "10 000 tenants, one row each, in flight", "10 000 tenants with due work (2 rows each)"};
        int[][] shape = {{0, 0}, {8, 2}, {8, 3_600}, {10_000, 1}, {10_000, 2}};
        int baseline = 1;
        double[][][] cells = new double[labels.length][rounds][];
        long t0 = System.nanoTime();
        Path[] templates = new Path[labels.length];
        for (int c = 0; c < labels.length; c++) {
            templates[c] = backlog(root, backend, shape[c][0], shape[c][1]);
        }
        System.out.printf(Locale.ROOT, "%s tick cells: the backlog stores built in %.1f s (load %.1f)%n", backend,
                (System.nanoTime() - t0) / 1e9, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        try {
            for (int r = 0; r < rounds; r++) {
                for (int c = 0; c < labels.length; c++) {
                    cells[c][r] = tickCell(root, backend, labels[c], templates[c], shape[c][0], shape[c][1], out);
                }
            }
        } finally {
            for (Path t : templates) {
                delete(t);
            }
        }
        double[][] median = new double[labels.length][2];
        for (int c = 0; c < labels.length; c++) {
            for (int m = 0; m < 2; m++) {
                int which = m;
                double[] values = Arrays.stream(cells[c]).mapToDouble(v -> v[which]).sorted().toArray();
                median[c][m] = values[values.length / 2];
            }
        }
        for (int c = 0; c < labels.length; c++) {
            double[] d = Arrays.stream(cells[c]).mapToDouble(v -> v[0]).sorted().toArray();
            double[] g = Arrays.stream(cells[c]).mapToDouble(v -> v[1]).sorted().toArray();
            progress(spread, String.format(Locale.ROOT,
                    "| %s | %s | %.3f | %.3f-%.3f | %.2f | %.2f | %.3f | %.3f-%.3f | %.2f | %.2f |", backend, labels[c],
                    median[c][0], d[0], d[d.length - 1], median[c][0] / median[baseline][0], median[c][0] / median[0][0],
                    median[c][1], g[0], g[g.length - 1], median[c][1] / median[baseline][1], median[c][1] / median[0][1]));
        }
        for (int c = 2; c < labels.length; c++) {
            if (median[c][0] > 1.5 * median[baseline][0] || median[c][1] > 1.5 * median[baseline][1]) {
                failures.add(backend + " tick cost (" + labels[c] + "): dispatch " + median[c][0] + " ms / gauges "
                        + median[c][1] + " ms vs " + median[baseline][0] + " / " + median[baseline][1]
                        + " ms with 8 tenants with due work (more than 1.5x; medians of " + rounds + " rounds)");
            }
        }
        if (median[4][1] > 2.0) {
            failures.add(backend + " gauges with 10 000 tenants with due work: " + median[4][1] + " ms (goal 2 ms)");
        }
    }

    /**
     * A closed store holding {@code backlogTenants} tenants' rows, one per tenant and second over
     * {@code seconds} seconds of a hand-moved clock starting at {@link QueueUnderTest#EPOCH} (one
     * synced ingest round per second: an hour's backlog takes minutes, so it is built once per
     * backend and each round runs on a copy).
     */
    private static Path backlog(Path root, String backend, int backlogTenants, int seconds) throws Exception {
        Path dir = Files.createTempDirectory(root, "fair-tick-template-" + backend + "-");
        MutableClock clock = new MutableClock(QueueUnderTest.EPOCH);
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).clock(clock).build())) {
            for (int s = 0; s < seconds; s++) {
                List<CompletableFuture<?>> receipts = new ArrayList<>(backlogTenants);
                for (int b = 0; b < backlogTenants; b++) {
                    receipts.add(queue.ingest(Hook.builder().id("b" + b + "-" + s).sourceId("bench").tenantId("b" + b)
                            .payload("{}").sinks(0).build()));
                }
                receipts.forEach(CompletableFuture::join);
                clock.advance(1_000);
            }
        }
        return dir;
    }

    /** Dispatch p50 and gauge p50 in ms, on a copy of {@code template}. */
    private static double[] tickCell(Path root, String backend, String label, Path template, int backlogTenants, int seconds,
            List<String> out) throws Exception {
        Path dir = Files.createTempDirectory(root, "fair-tick-" + backend + "-");
        copy(template, dir);
        MutableClock clock = new MutableClock(QueueUnderTest.EPOCH + seconds * 1_000L);
        TenantPolicies policies = tenant -> tenant.startsWith("b") ? TenantPolicy.DEFAULT.withMaxInflight(1)
                : TenantPolicy.DEFAULT;
        int measured = Integer.getInteger("ankusa.bench.ticks", 200);
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).clock(clock).tenantPolicies(policies)
                .build())) {
            List<CompletableFuture<SinkOutcome>> held = new ArrayList<>();
            try (Pipeline pipeline = Pipeline.builder(queue, d -> {
                if (d.tenantId().startsWith("b")) {
                    CompletableFuture<SinkOutcome> never = new CompletableFuture<>();
                    synchronized (held) {
                        held.add(never);
                    }
                    return never;
                }
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }).concurrency(backlogTenants + 64).rowsPerTick(1024).sinkDeadline(Duration.ofHours(1)).manual()) {
                long markers = (long) backlogTenants * seconds;
                // Let the feed make its first pass over the backlog (a page a tick) and every backlogged
                // tenant reach its in-flight limit.
                for (int t = 0; t < markers / 4_096 + 16; t++) {
                    pipeline.tick();
                }
                double[] dispatch = new double[measured];
                double[] gauges = new double[measured];
                double[] aggregate = new double[measured];
                double[] oldest = new double[measured];
                DeliveryLedger ledger = LedgerSource.of(queue).deliveryLedger();
                for (int i = 0; i < measured + 20; i++) {
                    clock.advance(1_000);
                    for (int q = 0; q < 8; q++) {
                        queue.ingest(Hook.builder().id("q" + q + "-" + i).sourceId("bench").tenantId("quiet" + q).payload("{}")
                                .sinks(0).build()).join();
                    }
                    long t0 = System.nanoTime();
                    pipeline.tick().toCompletableFuture().get(1, TimeUnit.MINUTES);
                    long t1 = System.nanoTime();
                    pipeline.gauges();
                    long t2 = System.nanoTime();
                    queue.stats();
                    long t3 = System.nanoTime();
                    ledger.oldestDueAt();
                    long t4 = System.nanoTime();
                    if (i >= 20) {
                        dispatch[i - 20] = (t1 - t0) / 1e6;
                        gauges[i - 20] = (t2 - t1) / 1e6;
                        aggregate[i - 20] = (t3 - t2) / 1e6;
                        oldest[i - 20] = (t4 - t3) / 1e6;
                    }
                }
                Arrays.sort(dispatch);
                Arrays.sort(gauges);
                Arrays.sort(aggregate);
                Arrays.sort(oldest);
                int p99 = Math.min(measured - 1, (int) Math.ceil(measured * 0.99) - 1);
                progress(out, String.format(Locale.ROOT, "| %s | %s | %,d | %.3f | %.3f | %.3f | %.3f | %.4f | %.4f |", backend,
                        label, markers, dispatch[measured / 2], dispatch[p99], gauges[measured / 2], gauges[p99],
                        aggregate[measured / 2], oldest[measured / 2]));
                synchronized (held) {
                    held.forEach(h -> h.complete(SinkOutcome.retry("bench over")));
                }
                return new double[] {dispatch[measured / 2], gauges[measured / 2]};
            }
        } finally {
            delete(dir);
        }
    }

    /** Keeps a table row and prints it at once (a long run shows its cells as they finish). */
    static void progress(List<String> out, String row) {
        out.add(row);
        System.out.printf(Locale.ROOT, "cell (load %.1f): %s%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), row);
    }

    /** Copies a closed store's directory. */
    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
