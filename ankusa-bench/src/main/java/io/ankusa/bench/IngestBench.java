package io.ankusa.bench;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Rate;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.queue.Queue;
import io.ankusa.store.Stores;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The ingest bench: synced ingest throughput (hooks per second, each acknowledged only after its
 * fsync) on the rocksdb and lmdb backends, with one tenant and with 10 000 tenants, in two shapes:
 * many hooks in flight (group commit fills batches of up to the default 1 024) and one hook in flight (one
 * synced commit per hook). Prints a Markdown table and exits non-zero when a hook is lost or
 * miscounted, or a figure falls under a floor far below normal (100 hooks/s batched, 20 serial).
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests
 * </pre>
 *
 * System properties: {@code ankusa.bench.hooks} (per batched cell, default 100 000),
 * {@code ankusa.bench.serialHooks} (per serial cell, default 3 000; 0 leaves the serial cells out), {@code ankusa.bench.producers}
 * (default 4), {@code ankusa.bench.ingestTenants} (tenant counts, default 1,10000), {@code ankusa.bench.dir}.
 * Payload 256 bytes, one sink per hook. Before each cell 10 000 hooks, or one per tenant if there are
 * more tenants, are ingested (every tenant once, so every tenant exists, and at least the same JIT
 * warm-up for every cell); hooks then go to the tenants round-robin.
 *
 * <p>Admission: every cell runs twice, with the default policy (no limits: admission costs a map
 * look-up) and with {@code admission on} (every tenant with pending-row and pending-byte limits and
 * an ingest rate, all far above what the bench reaches, so nothing is refused but every check
 * runs: counters read once per tenant, estimates kept, a token taken per hook). The last table
 * gives the ratio on/off per cell; {@code ankusa.bench.admission=off} runs only the first.
 *
 * <p>Rounds ({@code ankusa.bench.ingestRounds}, default 1): every cell runs once per round, off and
 * on back to back (off first in odd rounds, on first in even ones, so a drift of the machine
 * favours neither), and the tables give each cell's median over the rounds, the on/off ratio of the
 * medians and the spread of the per-round ratios (min .. max). On a machine shared with other
 * builds, the paired, alternating runs are what make the ratio mean something; so is the writer
 * thread's CPU time per hook (the thread admission runs on; CPU time, unlike wall time, does not
 * count the time other processes hold the cores), printed per cell with its own on/off ratio.
 */
public final class IngestBench {

    static final double MIN_BATCHED_HOOKS_PER_SECOND = 100;
    static final double MIN_SERIAL_HOOKS_PER_SECOND = 20;
    private static final int WARM_UP = 10_000;
    private static final int PAYLOAD = 256;

    private IngestBench() {
    }

    /** Limits far above the bench: every check runs, none refuses. */
    static final TenantPolicy LIMITED = TenantPolicy.DEFAULT.withMaxPendingRows(Long.MAX_VALUE / 2)
            .withMaxPendingBytes(Long.MAX_VALUE / 2).withIngestRate(new Rate(1e9, 1_000_000_000L));

    private record Cell(String backend, int tenants, String shape, boolean admission, int hooks, double seconds,
            long writerCpuNanos) {
        double rate() {
            return hooks / seconds;
        }

        double writerCpuMicrosPerHook() {
            return writerCpuNanos / 1e3 / hooks;
        }

        boolean sameCell(Cell other) {
            return backend.equals(other.backend) && tenants == other.tenants && shape.equals(other.shape);
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Runs the bench; see the class comment for the properties. */
    public static void main(String[] args) throws Exception {
        int hooks = Integer.getInteger("ankusa.bench.hooks", 100_000);
        int serialHooks = Integer.getInteger("ankusa.bench.serialHooks", 3_000);
        int producers = Integer.getInteger("ankusa.bench.producers", 4);
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        List<String> failures = new ArrayList<>();
        List<Cell> cells = new ArrayList<>();
        List<Boolean> admissions = System.getProperty("ankusa.bench.admission", "both").equals("off")
                ? List.of(false) : List.of(false, true);
        int rounds = Math.max(1, Integer.getInteger("ankusa.bench.ingestRounds", 1));
        int[] tenantCounts = Stream.of(System.getProperty("ankusa.bench.ingestTenants", "1,10000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        // One list per round: its cells in the order they ran.
        List<List<Cell>> byRound = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            List<Cell> ran = new ArrayList<>();
            List<Boolean> order = round % 2 != 0 || admissions.size() == 1 ? admissions : List.of(true, false);
            for (String backend : Stream.of("rocksdb", "lmdb").filter(b -> Stores.provider(b).isPresent()).toList()) {
                for (int tenants : tenantCounts) {
                    for (boolean admission : order) {
                        ran.add(run(root, backend, tenants, "batched", admission, hooks, producers, 8_192, failures));
                    }
                    for (boolean admission : serialHooks > 0 ? order : List.<Boolean>of()) {
                        ran.add(run(root, backend, tenants, "serial", admission, serialHooks, 1, 1, failures));
                    }
                }
            }
            byRound.add(ran);
            cells.addAll(ran);
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Ingest bench: synced, %d B payload, 1 sink, batches of up to 1 024 hooks, "
                + "batched = %d producers with up to 8 192 hooks in flight, serial = 1 hook in flight, Java %s%n%n",
                PAYLOAD, producers, System.getProperty("java.version"));
        System.out.printf(Locale.ROOT, "%d round(s); hooks/s is the median over the rounds%n%n", rounds);
        System.out.println("| backend | tenants | shape | admission | hooks | hooks/s | writer CPU µs/hook |");
        System.out.println("|---|---:|---|---|---:|---:|---:|");
        List<Cell> firstRound = byRound.get(0);
        for (Cell c : firstRound.stream().sorted(Comparator.comparing(Cell::backend).thenComparing(Cell::shape)
                .thenComparing(Cell::tenants).thenComparing(Cell::admission)).toList()) {
            List<Cell> same = cells.stream().filter(o -> o.sameCell(c) && o.admission() == c.admission()).toList();
            System.out.printf(Locale.ROOT, "| %s | %,d | %s | %s | %,d | %,.0f | %.2f |%n", c.backend(), c.tenants(),
                    c.shape(), c.admission() ? "on" : "off", c.hooks(), median(same.stream().map(Cell::rate).toList()),
                    median(same.stream().map(Cell::writerCpuMicrosPerHook).toList()));
        }
        if (admissions.size() == 2) {
            System.out.println();
            System.out.println("| backend | tenants | shape | on/off hooks/s (medians) | per-round, min .. max "
                    + "| writer CPU per hook on/off (medians) | per-round, min .. max |");
            System.out.println("|---|---:|---|---:|---|---:|---|");
            for (Cell on : firstRound.stream().filter(Cell::admission).toList()) {
                List<Double> onRates = new ArrayList<>();
                List<Double> offRates = new ArrayList<>();
                List<Double> ratios = new ArrayList<>();
                List<Double> onCpu = new ArrayList<>();
                List<Double> offCpu = new ArrayList<>();
                List<Double> cpuRatios = new ArrayList<>();
                for (List<Cell> round : byRound) {
                    Cell roundOn = round.stream().filter(c -> c.admission() && c.sameCell(on)).findFirst().orElseThrow();
                    Cell roundOff = round.stream().filter(c -> !c.admission() && c.sameCell(on)).findFirst().orElseThrow();
                    onRates.add(roundOn.rate());
                    offRates.add(roundOff.rate());
                    ratios.add(roundOn.rate() / roundOff.rate());
                    onCpu.add(roundOn.writerCpuMicrosPerHook());
                    offCpu.add(roundOff.writerCpuMicrosPerHook());
                    cpuRatios.add(roundOn.writerCpuMicrosPerHook() / roundOff.writerCpuMicrosPerHook());
                }
                System.out.printf(Locale.ROOT, "| %s | %,d | %s | %.3f | %.3f .. %.3f | %.3f | %.3f .. %.3f |%n",
                        on.backend(), on.tenants(), on.shape(), median(onRates) / median(offRates),
                        ratios.stream().mapToDouble(d -> d).min().orElse(0), ratios.stream().mapToDouble(d -> d).max().orElse(0),
                        median(onCpu) / median(offCpu), cpuRatios.stream().mapToDouble(d -> d).min().orElse(0),
                        cpuRatios.stream().mapToDouble(d -> d).max().orElse(0));
            }
        }
        for (Cell c : cells) {
            double floor = c.shape().equals("serial") ? MIN_SERIAL_HOOKS_PER_SECOND : MIN_BATCHED_HOOKS_PER_SECOND;
            if (c.rate() < floor) {
                failures.add(c + ": " + c.rate() + " hooks/s is under the floor of " + floor);
            }
        }
        if (!failures.isEmpty()) {
            System.out.println();
            failures.forEach(f -> System.out.println("FAIL " + f));
            System.exit(1);
        }
    }

    private static Cell run(Path root, String backend, int tenants, String shape, boolean admission, int hooks,
            int producers, int limit, List<String> failures) throws IOException, Exception {
        Path dir = Files.createTempDirectory(root, "ingest-" + backend + "-");
        QueueConfig.Builder config = QueueConfig.builder(dir).backend(backend);
        if (admission) {
            config.tenantPolicies(TenantPolicies.uniform(LIMITED));
        }
        try (Queue queue = Queue.open(config.build())) {
            byte[] body = new byte[PAYLOAD];
            // In chunks: with a million tenants the warm-up is a million hooks.
            int warmUp = warmUp(tenants);
            for (int from = 0; from < warmUp; from += WARM_UP) {
                List<CompletableFuture<?>> warm = new ArrayList<>();
                for (int i = from; i < Math.min(warmUp, from + WARM_UP); i++) {
                    warm.add(queue.ingest(hook("w" + i, i % tenants, body)));
                }
                CompletableFuture.allOf(warm.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.MINUTES);
            }
            // The writer thread's CPU time is what admission adds to (it decides on that thread), and
            // unlike wall time it does not move with the other processes on a shared machine.
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long writer = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("ankusa-ingest-writer")).findFirst().orElseThrow().getId();
            long cpuBefore = threads.getThreadCpuTime(writer);
            Semaphore inFlight = new Semaphore(limit);
            AtomicLong next = new AtomicLong();
            AtomicLong refused = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(producers);
            long start = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                running.add(pool.submit(() -> {
                    long i;
                    while ((i = next.getAndIncrement()) < hooks) {
                        inFlight.acquireUninterruptibly();
                        queue.ingest(hook("h" + i, (int) (i % tenants), body)).whenComplete((r, e) -> {
                            if (e != null) {
                                refused.incrementAndGet();
                            }
                            inFlight.release();
                        });
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            inFlight.acquire(limit);
            double seconds = (System.nanoTime() - start) / 1e9;
            long writerCpu = threads.getThreadCpuTime(writer) - cpuBefore;
            pool.shutdown();
            Cell cell = new Cell(backend, tenants, shape, admission, hooks, seconds, writerCpu);
            long expected = warmUp + (long) hooks;
            if (refused.get() != 0 || queue.stats().pending() != expected || queue.tenantCount() != tenants) {
                failures.add(cell + ": " + refused.get() + " refused, pending " + queue.stats().pending() + " of "
                        + expected + ", tenants " + queue.tenantCount() + " of " + tenants);
            }
            return cell;
        } finally {
            delete(dir);
        }
    }

    /** Hooks before a cell is measured: at least {@value #WARM_UP}, and every tenant once. */
    private static int warmUp(int tenants) {
        return Math.max(WARM_UP, tenants);
    }

    private static Hook hook(String id, int tenant, byte[] body) {
        return Hook.builder().id(id).sourceId("bench").tenantId("tenant-" + tenant).payload(body).sinks(0).build();
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
