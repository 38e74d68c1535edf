package io.ankusa.bench;

import io.ankusa.api.EndpointSettings;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fairness bench's cost-of-fairness cell: 100 000 no-op deliveries over 10 000 tenants through
 * a started pipeline (its defaults), with the scheduler's fairness (every tenant weight 1: a turn
 * is 16 rows when the tick has room for everyone) against the same scheduler without it (every
 * tenant at the largest weight, so a turn of 16 000 rows is larger than a tick: the tenant at the
 * head of the ring takes all its due rows, tick after tick, before the next one gets any — oldest
 * first in ring order, no sharing).
 *
 * <p>Endpoints have no concurrency limit here unless {@code ankusa.bench.costEndpointConcurrency}
 * sets one (the queue's default is 16 per endpoint): each tenant has one endpoint, so with the
 * default a tenant without fairness could have only 16 deliveries out, and the cell would measure
 * the endpoint limit rather than the scheduler.
 *
 * <p>The backlog: 10 heavy tenants with 5 005 rows each and 9 990 light ones with 5 each (a few big
 * senders beside many small ones, so that the turn size matters: with fairness a tick reads 16 rows
 * from each of eight heavy tenants where without it reads 128 from one). It is ingested once per
 * backend into a template store, which each measured run copies, so every run starts from the same
 * store. Rounds alternate which variant runs first ({@code ankusa.bench.costRounds}, default 3);
 * the clock runs from {@code start()} until every row is settled (the counters' pending, scheduled
 * and inflight are 0). Goal: fair throughput at least 0.9 × without fairness (medians).
 */
final class CostOfFairness {

    static final String HEADER = "| backend | round | variant | seconds | deliveries/s | fair / without (this round) |\n"
            + "|---|---:|---|---:|---:|---:|";
    private static final int HEAVY = 10;
    private static final int HEAVY_ROWS = 5_005;
    private static final int LIGHT = 9_990;
    private static final int LIGHT_ROWS = 5;
    private static final int ROWS = HEAVY * HEAVY_ROWS + LIGHT * LIGHT_ROWS;

    private CostOfFairness() {
    }

    static String describe() {
        return String.format(Locale.ROOT, "%,d no-op deliveries over %,d tenants: %d with %,d rows and %,d with %d; "
                + "pipeline defaults; endpoint concurrency %s; rounds alternate the order", ROWS, HEAVY + LIGHT, HEAVY, HEAVY_ROWS,
                LIGHT, LIGHT_ROWS, Integer.getInteger("ankusa.bench.costEndpointConcurrency", Integer.MAX_VALUE) == Integer.MAX_VALUE
                        ? "unlimited" : Integer.getInteger("ankusa.bench.costEndpointConcurrency").toString());
    }

    /** Measures both variants on {@code backend}, adding rows to {@code out} and missed goals to {@code failures}. */
    static void run(Path root, String backend, List<String> out, List<String> failures) throws Exception {
        int rounds = Integer.getInteger("ankusa.bench.costRounds", 3);
        Path template = Files.createTempDirectory(root, "fair-cost-template-" + backend + "-");
        try {
            long t0 = System.nanoTime();
            try (Queue queue = Queue.open(QueueConfig.builder(template).backend(backend).build())) {
                ingest(queue);
            }
            FairnessBench.progress(out, String.format(Locale.ROOT, "| %s | — | template store ingested | %.1f | — | — |",
                    backend, (System.nanoTime() - t0) / 1e9));
            TenantPolicies fair = TenantPolicies.of(TenantPolicy.DEFAULT, Map.of());
            TenantPolicies without = TenantPolicies.of(TenantPolicy.DEFAULT.withWeight(TenantPolicy.MAX_WEIGHT), Map.of());
            double[] fairRates = new double[rounds];
            double[] withoutRates = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                boolean fairFirst = r % 2 == 0;
                double first = measure(root, backend, template, fairFirst ? fair : without);
                double second = measure(root, backend, template, fairFirst ? without : fair);
                fairRates[r] = fairFirst ? first : second;
                withoutRates[r] = fairFirst ? second : first;
                double ratio = fairRates[r] / withoutRates[r];
                for (boolean isFair : fairFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    double rate = isFair ? fairRates[r] : withoutRates[r];
                    FairnessBench.progress(out, String.format(Locale.ROOT, "| %s | %d | %s | %.2f | %,.0f | %s |", backend, r + 1,
                            isFair ? "fair (weight 1)" : "without fairness (weight 1 000)", ROWS / rate, rate,
                            isFair ? String.format(Locale.ROOT, "%.2f", ratio) : ""));
                }
            }
            double fairMedian = median(fairRates);
            double withoutMedian = median(withoutRates);
            double ratio = fairMedian / withoutMedian;
            FairnessBench.progress(out, String.format(Locale.ROOT,
                    "| %s | median | fair %,.0f/s, without %,.0f/s | — | — | **%.2f** |", backend, fairMedian, withoutMedian, ratio));
            if (ratio < 0.9) {
                failures.add(String.format(Locale.ROOT, "%s cost of fairness: fair %.0f/s is %.2f x without (%.0f/s), goal 0.9",
                        backend, fairMedian, ratio, withoutMedian));
            }
        } finally {
            FairnessBench.delete(template);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    /** Interleaved across tenants, as concurrent senders would: the light tenants' rows in the first seconds. */
    private static void ingest(Queue queue) throws InterruptedException {
        Semaphore inFlight = new Semaphore(8_192);
        AtomicLong refused = new AtomicLong();
        for (int pass = 0; pass < HEAVY_ROWS; pass++) {
            int tenants = pass < LIGHT_ROWS ? HEAVY + LIGHT : HEAVY;
            for (int t = 0; t < tenants; t++) {
                inFlight.acquire();
                String tenant = t < HEAVY ? "heavy" + t : "light" + t;
                queue.ingest(Hook.builder().id(tenant + "-" + pass).sourceId("bench").tenantId(tenant).payload("{}").sinks(0)
                        .build()).whenComplete((receipt, e) -> {
                            if (e != null) {
                                refused.incrementAndGet();
                            }
                            inFlight.release();
                        });
            }
        }
        if (!inFlight.tryAcquire(8_192, 30, TimeUnit.MINUTES) || refused.get() != 0) {
            throw new IllegalStateException(refused.get() + " hooks refused at ingest");
        }
    }

    /** Deliveries per second from a copy of {@code template} with {@code policies}. */
    private static double measure(Path root, String backend, Path template, TenantPolicies policies) throws Exception {
        Path dir = Files.createTempDirectory(root, "fair-cost-" + backend + "-");
        try {
            FairnessBench.copy(template, dir);
            int endpointConcurrency = Integer.getInteger("ankusa.bench.costEndpointConcurrency", Integer.MAX_VALUE);
            try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).tenantPolicies(policies)
                    .endpoints(EndpointSettings.DEFAULTS.withMaxConcurrency(endpointConcurrency)).build())) {
                CountDownLatch sent = new CountDownLatch(ROWS);
                AtomicLong calls = new AtomicLong();
                long start;
                long end;
                try (Pipeline pipeline = Pipeline.builder(queue, d -> {
                    calls.incrementAndGet();
                    sent.countDown();
                    return CompletableFuture.completedFuture(SinkOutcome.delivered());
                }).manual()) {
                    start = System.nanoTime();
                    pipeline.start();
                    if (!sent.await(30, TimeUnit.MINUTES)) {
                        throw new IllegalStateException("not every row was delivered: " + sent.getCount() + " left");
                    }
                    while (true) {
                        QueueStats stats = queue.stats();
                        if (stats.pending() + stats.scheduled() + stats.inflight() == 0) {
                            break;
                        }
                        Thread.sleep(1);
                    }
                    end = System.nanoTime();
                }
                if (calls.get() != ROWS) {
                    throw new IllegalStateException(calls.get() + " sink calls for " + ROWS + " rows");
                }
                return ROWS / ((end - start) / 1e9);
            }
        } finally {
            FairnessBench.delete(dir);
        }
    }
}
