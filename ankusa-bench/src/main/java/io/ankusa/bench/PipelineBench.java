package io.ankusa.bench;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.micrometer.AnkusaMetrics;
import io.ankusa.queue.Queue;
import io.ankusa.store.Stores;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The pipeline bench: deliveries per second through a started {@link Pipeline} with a no-op sink
 * (answers "delivered" at once), on rocksdb and lmdb, with the backlog spread over 1 tenant and
 * over 10 000 tenants. The backlog is ingested first (not timed); the clock runs from
 * {@code start()} until every row is settled (the node's bytes counter is back to 0). Prints a
 * Markdown table and exits non-zero when a hook is not delivered exactly once, a counter is not
 * back to zero, or a figure falls under a floor far below normal (200 deliveries/s).
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests
 * </pre>
 *
 * System properties: {@code ankusa.bench.deliveries} (per cell, default 100 000),
 * {@code ankusa.bench.backends} (comma-separated; default both), {@code ankusa.bench.dir},
 * {@code ankusa.bench.metrics} ({@code off}, {@code on} or {@code off,on}; default {@code off}: with
 * {@code on} an {@code AnkusaMetrics} listens on the queue and the pipeline and its gauges are read
 * every second), {@code ankusa.bench.rounds} (default 1; with both modes, rounds alternate which mode
 * runs first and a table of medians and on/off ratios follows, for deliveries/s and for the
 * process's CPU time per delivery, which a shared machine's load disturbs less than wall time). Payload 256 bytes, one sink per hook, the pipeline's defaults
 * (1 024 rows per tick, 256 deliveries at once). Before each cell a warm-up of 10 000 deliveries
 * runs through the same kind of queue.
 */
public final class PipelineBench {

    static final double MIN_DELIVERIES_PER_SECOND = 200;
    private static final int WARM_UP = 10_000;
    private static final int PAYLOAD = 256;

    private PipelineBench() {
    }

    private record Cell(String backend, int tenants, int deliveries, boolean metrics, double seconds, long cpuNanos,
            long listenerCpuNanos) {
        double rate() {
            return deliveries / seconds;
        }

        double cpuMicrosPerDelivery() {
            return cpuNanos / 1e3 / deliveries;
        }

        double listenerCpuMicrosPerDelivery() {
            return listenerCpuNanos / 1e3 / deliveries;
        }
    }

    /** Runs the bench; see the class comment for the properties. */
    public static void main(String[] args) throws Exception {
        int deliveries = Integer.getInteger("ankusa.bench.deliveries", 100_000);
        int rounds = Integer.getInteger("ankusa.bench.rounds", 1);
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        List<String> failures = new ArrayList<>();
        List<Cell> cells = new ArrayList<>();
        String backends = System.getProperty("ankusa.bench.backends", "");
        for (String backend : Stream.of("rocksdb", "lmdb").filter(b -> Stores.provider(b).isPresent())
                .filter(b -> backends.isBlank() || List.of(backends.split(",")).contains(b)).toList()) {
            for (int tenants : new int[] {1, 10_000}) {
                for (int round = 0; round < rounds; round++) {
                    // Off and on alternate which goes first, so a drift in the machine's load over a run
                    // falls on both sides of the comparison.
                    List<String> modes = new ArrayList<>(List.of(System.getProperty("ankusa.bench.metrics", "off").split(",")));
                    if (round % 2 != 0) {
                        Collections.reverse(modes);
                    }
                    for (String metrics : modes) {
                        boolean on = metrics.strip().equals("on");
                        run(root, backend, tenants, WARM_UP, on, new ArrayList<>());
                        cells.add(run(root, backend, tenants, deliveries, on, failures));
                    }
                }
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Pipeline bench: no-op sink, %d B payload, 1 sink per hook, pipeline defaults "
                + "(1 024 rows per tick, 256 deliveries at once), Java %s%n%n", PAYLOAD, System.getProperty("java.version"));
        System.out.println("| backend | tenants | metrics | deliveries | seconds | deliveries/s | process CPU µs/delivery "
                + "| of which listener threads |");
        System.out.println("|---|---:|---|---:|---:|---:|---:|---:|");
        cells.stream().sorted(Comparator.comparing(Cell::backend).thenComparing(Cell::tenants).thenComparing(Cell::metrics))
                .forEach(c -> System.out.printf(Locale.ROOT, "| %s | %,d | %s | %,d | %.2f | %,.0f | %.1f | %.2f |%n",
                        c.backend(), c.tenants(), c.metrics() ? "on" : "off", c.deliveries(), c.seconds(), c.rate(),
                        c.cpuMicrosPerDelivery(), c.listenerCpuMicrosPerDelivery()));
        printOnOffMedians(cells);
        for (Cell c : cells) {
            if (c.rate() < MIN_DELIVERIES_PER_SECOND) {
                failures.add(c + ": " + c.rate() + " deliveries/s is under the floor of " + MIN_DELIVERIES_PER_SECOND);
            }
        }
        if (!failures.isEmpty()) {
            System.out.println();
            failures.forEach(f -> System.out.println("FAIL " + f));
            System.exit(1);
        }
    }

    private static Cell run(Path root, String backend, int tenants, int hooks, boolean metrics, List<String> failures)
            throws Exception {
        Path dir = Files.createTempDirectory(root, "pipeline-" + backend + "-");
        // With metrics: AnkusaMetrics on the queue and the pipeline (every event published and counted) and bound
        // to a registry whose gauges are read once per second, as a scrape would.
        AnkusaMetrics binder = AnkusaMetrics.create();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // The sink is in-process: no per-endpoint limit (its default, 16, is the HTTP client's per-host pool).
        QueueConfig.Builder config = QueueConfig.builder(dir).backend(backend)
                .endpoints(io.ankusa.api.EndpointSettings.DEFAULTS.withMaxConcurrency(Integer.MAX_VALUE));
        if (metrics) {
            config.listener(binder);
        }
        try (Queue queue = Queue.open(config.build())) {
            if (metrics) {
                binder.monitor(queue).bindTo(registry);
            }
            byte[] body = new byte[PAYLOAD];
            // Not timed; at most 8 192 hooks in flight, below the writer's queue capacity.
            Semaphore inFlight = new Semaphore(8_192);
            AtomicLong refused = new AtomicLong();
            for (int i = 0; i < hooks; i++) {
                inFlight.acquire();
                queue.ingest(Hook.builder().id("h" + i).sourceId("bench").tenantId("tenant-" + (i % tenants))
                        .payload(body).sinks(0).build()).whenComplete((r, e) -> {
                            if (e != null) {
                                refused.incrementAndGet();
                            }
                            inFlight.release();
                        });
            }
            if (!inFlight.tryAcquire(8_192, 10, TimeUnit.MINUTES) || refused.get() != 0) {
                throw new IllegalStateException(refused.get() + " hooks refused at ingest");
            }
            AtomicIntegerArray seen = new AtomicIntegerArray(hooks);
            AtomicLong calls = new AtomicLong();
            long start;
            long cpuStart;
            long listenerCpuStart;
            long listenerCpu;
            try (Pipeline pipeline = listening(Pipeline.builder(queue, d -> {
                seen.incrementAndGet(Integer.parseInt(d.hookId().substring(1)));
                calls.incrementAndGet();
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }), metrics, binder).concurrency(Integer.getInteger("ankusa.bench.concurrency", 256))
                    .rowsPerTick(Integer.getInteger("ankusa.bench.rowsPerTick", 1024)).manual()) {
                start = System.nanoTime();
                cpuStart = processCpuNanos();
                listenerCpuStart = listenerCpuNanos();
                pipeline.start();
                long scraped = start;
                while (queue.stats().bytes() != 0) {
                    Thread.sleep(2);
                    if (metrics && System.nanoTime() - scraped > 1_000_000_000L) {
                        registry.getMeters().forEach(m -> m.measure().forEach(ms -> ms.getValue()));
                        scraped = System.nanoTime();
                    }
                }
                // Read before the pipeline closes: its listener thread ends with it.
                listenerCpu = listenerCpuNanos() - listenerCpuStart;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Cell cell = new Cell(backend, tenants, hooks, metrics, seconds, processCpuNanos() - cpuStart,
                    listenerCpu);
            int missing = 0;
            int twice = 0;
            for (int i = 0; i < hooks; i++) {
                missing += seen.get(i) == 0 ? 1 : 0;
                twice += seen.get(i) > 1 ? 1 : 0;
            }
            QueueStats stats = queue.stats();
            if (missing != 0 || twice != 0 || calls.get() != hooks || !stats.equals(new QueueStats(0, 0, 0, 0, 0, 0))) {
                failures.add(cell + ": " + missing + " never delivered, " + twice + " delivered more than once, "
                        + calls.get() + " sink calls, counters " + stats);
            }
            return cell;
        } finally {
            delete(dir);
        }
    }

    /** Per backend and tenant count with both modes: medians over the rounds and the on/off ratios. */
    private static void printOnOffMedians(List<Cell> cells) {
        Map<String, List<Cell>> groups = new TreeMap<>();
        cells.forEach(c -> groups.computeIfAbsent(c.backend() + " | " + String.format(Locale.ROOT, "%,d", c.tenants()),
                k -> new ArrayList<>()).add(c));
        List<String> rows = new ArrayList<>();
        groups.forEach((key, group) -> {
            List<Cell> off = group.stream().filter(c -> !c.metrics()).toList();
            List<Cell> on = group.stream().filter(Cell::metrics).toList();
            if (off.isEmpty() || on.isEmpty()) {
                return;
            }
            double offRate = median(off.stream().mapToDouble(Cell::rate).toArray());
            double onRate = median(on.stream().mapToDouble(Cell::rate).toArray());
            double offCpu = median(off.stream().mapToDouble(Cell::cpuMicrosPerDelivery).toArray());
            double onCpu = median(on.stream().mapToDouble(Cell::cpuMicrosPerDelivery).toArray());
            rows.add(String.format(Locale.ROOT, "| %s | %d | %,.0f | %,.0f | %.3f | %.1f | %.1f | %.3f |", key,
                    Math.min(off.size(), on.size()), offRate, onRate, onRate / offRate, offCpu, onCpu, onCpu / offCpu));
        });
        if (rows.isEmpty()) {
            return;
        }
        System.out.println();
        System.out.println("Medians over the rounds (metrics off → on):");
        System.out.println();
        System.out.println("| backend | tenants | rounds | deliveries/s off | on | on/off | CPU µs/delivery off | on | on/off |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        rows.forEach(System.out::println);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    /** CPU time of the live event hand-off threads (queue's and pipeline's), where listeners run. */
    private static long listenerCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().contains("events")) {
                sum += Math.max(0, threads.getThreadCpuTime(t.getId()));
            }
        }
        return sum;
    }

    private static Pipeline.Builder listening(Pipeline.Builder builder, boolean metrics, AnkusaMetrics binder) {
        return metrics ? builder.listener(binder) : builder;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
