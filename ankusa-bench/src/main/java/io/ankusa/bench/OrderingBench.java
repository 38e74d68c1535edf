package io.ankusa.bench;

import io.ankusa.api.EndpointSettings;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What ordering keys cost everyone else: {@value #TENANTS} tenants, {@value #ROWS} no-op deliveries
 * through a started pipeline (its defaults, endpoints unlimited), one in ten hooks carrying an
 * ordering key (three keys per tenant), and one key whose head always fails. Measured: the drain
 * rate of the unordered hooks (from {@code start()} until the last of them is delivered) against
 * the same backlog ingested without ordering keys (and without the failing head), per round, the
 * variants alternating which runs first (an even number of rounds, after a warm-up pair that is not
 * counted, so a machine that speeds up over the run favours neither); the ordered deliveries' latency from {@code start()}
 * (p50, p99); and that the failing key held up only itself (every other delivery was made).
 * Goal: unordered drain with ordered keys at least 0.9 × without (medians).
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.only=OrderingBench
 * </pre>
 *
 * <p>Options: {@code ankusa.bench.backends} (default {@code rocksdb,lmdb}), {@code ankusa.bench.dir},
 * {@code ankusa.bench.orderingRounds} (default 4), {@code ankusa.bench.orderingRows} (default {@value #ROWS}).
 */
public final class OrderingBench {

    private static final int TENANTS = 10_000;
    private static final int ROWS = 100_000;
    private static final String STUCK = "stuck";

    private OrderingBench() {
    }

    /** Runs the bench; exits 1 when the goal is missed. */
    public static void main(String[] args) throws Exception {
        int rows = Integer.getInteger("ankusa.bench.orderingRows", ROWS);
        int rounds = Integer.getInteger("ankusa.bench.orderingRounds", 4);
        Path root = Path.of(System.getProperty("ankusa.bench.dir", System.getProperty("java.io.tmpdir")));
        List<String> failures = new ArrayList<>();
        System.out.printf(Locale.ROOT, "OrderingBench: %,d deliveries over %,d tenants, 10 %% ordered"
                + " (3 keys a tenant), one key with a failing head; %d rounds%n%n", rows, TENANTS, rounds);
        System.out.println("| backend | round | variant | unordered drain s | unordered/s | ordered p50 ms"
                + " | ordered p99 ms | with / without |");
        System.out.println("|---|---:|---|---:|---:|---:|---:|---:|");
        // The bench profile passes an empty ankusa.bench.backends when the command names none: both then.
        List<String> backends = Arrays.stream(System.getProperty("ankusa.bench.backends", "").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        for (String backend : backends.isEmpty() ? List.of("rocksdb", "lmdb") : backends) {
            // One pair first, not counted: the JIT and the page cache warm on it, not on round 1's first variant.
            measure(root, backend, rows, true);
            measure(root, backend, rows, false);
            double[] with = new double[rounds];
            double[] without = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                boolean withFirst = r % 2 == 0;
                Result first = measure(root, backend, rows, withFirst);
                Result second = measure(root, backend, rows, !withFirst);
                Result w = withFirst ? first : second;
                Result wo = withFirst ? second : first;
                with[r] = w.unorderedRate();
                without[r] = wo.unorderedRate();
                System.out.printf(Locale.ROOT, "| %s | %d | with ordered keys | %.2f | %,.0f | %.0f | %.0f | %.2f |%n",
                        backend, r + 1, w.unorderedSeconds(), w.unorderedRate(), w.p50Millis(), w.p99Millis(),
                        with[r] / without[r]);
                System.out.printf(Locale.ROOT, "| %s | %d | without | %.2f | %,.0f | — | — | |%n", backend, r + 1,
                        wo.unorderedSeconds(), wo.unorderedRate());
            }
            double ratio = median(with) / median(without);
            System.out.printf(Locale.ROOT, "| %s | median | | | with %,.0f/s, without %,.0f/s | | | **%.2f** |%n",
                    backend, median(with), median(without), ratio);
            if (ratio < 0.9) {
                failures.add(String.format(Locale.ROOT,
                        "%s: unordered drain with ordered keys is %.2f x without, goal 0.9", backend, ratio));
            }
        }
        if (!failures.isEmpty()) {
            failures.forEach(f -> System.out.println("GOAL MISSED: " + f));
            System.exit(1);
        }
    }

    /** One run's figures. */
    private record Result(double unorderedSeconds, double unorderedRate, double p50Millis, double p99Millis) {
    }

    private static boolean ordered(int i) {
        return i % 10 == 0;
    }

    private static Result measure(Path root, String backend, int rows, boolean withKeys) throws Exception {
        Path dir = Files.createTempDirectory(root, "ordering-" + backend + "-");
        try {
            try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend)
                    .endpoints(EndpointSettings.DEFAULTS.withMaxConcurrency(Integer.MAX_VALUE)).build())) {
                ingest(queue, rows, withKeys);
                int unordered = 0;
                for (int i = 0; i < rows; i++) {
                    unordered += ordered(i) ? 0 : 1;
                }
                CountDownLatch unorderedLeft = new CountDownLatch(unordered);
                int orderedExpected = withKeys ? rows - unordered - 1 - behindStuck(rows) : 0;
                CountDownLatch orderedLeft = new CountDownLatch(orderedExpected);
                long[] orderedAt = new long[rows - unordered];
                AtomicLong orderedCount = new AtomicLong();
                long[] start = {0};
                try (Pipeline pipeline = Pipeline.builder(queue, d -> {
                    if (d.hookId().startsWith(STUCK)) {
                        return CompletableFuture.completedFuture(SinkOutcome.retry("always down"));
                    }
                    if (d.hookId().startsWith("o")) {
                        int n = (int) orderedCount.getAndIncrement();
                        if (n < orderedAt.length) {
                            orderedAt[n] = System.nanoTime() - start[0];
                        }
                        orderedLeft.countDown();
                    } else {
                        unorderedLeft.countDown();
                    }
                    return CompletableFuture.completedFuture(SinkOutcome.delivered());
                }).retryPolicy(RetryPolicy.builder().schedule(List.of(Duration.ofMillis(50))).maxAttempts(1_000_000)
                        .jitter(0).build()).manual()) {
                    start[0] = System.nanoTime();
                    pipeline.start();
                    if (!unorderedLeft.await(30, TimeUnit.MINUTES)) {
                        throw new IllegalStateException("unordered deliveries left: " + unorderedLeft.getCount());
                    }
                    long unorderedNanos = System.nanoTime() - start[0];
                    if (!orderedLeft.await(30, TimeUnit.MINUTES)) {
                        throw new IllegalStateException("ordered deliveries left (the failing key held up others?): "
                                + orderedLeft.getCount());
                    }
                    long[] latencies = Arrays.copyOf(orderedAt, (int) Math.min(orderedAt.length, orderedCount.get()));
                    Arrays.sort(latencies);
                    double p50 = latencies.length == 0 ? 0 : latencies[latencies.length / 2] / 1e6;
                    double p99 = latencies.length == 0 ? 0 : latencies[(int) (latencies.length * 0.99)] / 1e6;
                    return new Result(unorderedNanos / 1e9, unordered / (unorderedNanos / 1e9), p50, p99);
                }
            }
        } finally {
            FairnessBench.delete(dir);
        }
    }

    /** Interleaved across tenants; every tenth hook ordered (with keys) under one of its tenant's three keys. */
    private static void ingest(Queue queue, int rows, boolean withKeys) throws InterruptedException {
        Semaphore inFlight = new Semaphore(8_192);
        AtomicLong refused = new AtomicLong();
        for (int i = 0; i < rows; i++) {
            inFlight.acquire();
            String tenant = "t" + (i % TENANTS);
            boolean stuck = withKeys && i == 0;
            Hook.Builder b = Hook.builder().id((stuck ? STUCK : ordered(i) ? "o" : "u") + i).sourceId("bench")
                    .tenantId(tenant).payload("{}").sinks(0);
            if (withKeys && ordered(i)) {
                b.orderingKey("k" + (i / TENANTS) % 3);
            }
            queue.ingest(b.build()).whenComplete((receipt, e) -> {
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

    /** Ordered hooks of the failing head's key (tenant t0, key k0) behind it: they wait, the rest must not. */
    private static int behindStuck(int rows) {
        int n = 0;
        for (int i = 1; i < rows; i++) {
            if (ordered(i) && i % TENANTS == 0 && (i / TENANTS) % 3 == 0) {
                n++;
            }
        }
        return n;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }
}
