package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.events.AttemptFinished;
import io.ankusa.api.events.DeadLettered;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.EndpointStateChanged;
import io.ankusa.api.events.IngestCommitted;
import io.ankusa.api.events.Quarantined;
import io.ankusa.api.events.QueueListener;
import io.ankusa.api.events.RetryScheduled;
import io.ankusa.api.events.TickFinished;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.micrometer.AnkusaMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link AnkusaMetrics} scraped by a Prometheus registry: the meter names docs/operations.md
 * documents, with values from a queue and a pipeline on both backends.
 */
class AnkusaMetricsTest {

    @TempDir
    Path dir;

    /** Forwards to the binder, then counts the settlements, so the test knows when the meters saw them. */
    private static final class Forwarding implements QueueListener {
        private final QueueListener to;
        private int settled;
        private int committed;

        Forwarding(QueueListener to) {
            this.to = to;
        }

        @Override
        public synchronized void onIngestCommitted(IngestCommitted event) {
            to.onIngestCommitted(event);
            committed++;
            notifyAll();
        }

        @Override
        public void onAttemptFinished(AttemptFinished event) {
            to.onAttemptFinished(event);
        }

        @Override
        public void onRetryScheduled(RetryScheduled event) {
            to.onRetryScheduled(event);
        }

        @Override
        public void onDeadLettered(DeadLettered event) {
            to.onDeadLettered(event);
        }

        @Override
        public synchronized void onSettled(DeliverySettled event) {
            to.onSettled(event);
            settled++;
            notifyAll();
        }

        @Override
        public void onEndpointStateChanged(EndpointStateChanged event) {
            to.onEndpointStateChanged(event);
        }

        @Override
        public void onTick(TickFinished event) {
            to.onTick(event);
        }

        @Override
        public void onQuarantined(Quarantined event) {
            to.onQuarantined(event);
        }

        synchronized void await(int committedBatches, int settledRows) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (committed < committedBatches || settled < settledRows) {
                long left = deadline - System.nanoTime();
                assertThat(left).as("events seen: %d batches, %d settled", committed, settled).isPositive();
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void oneCallBindsTheMetersToARunningQueueAndPipeline(String backend) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (DispatchFixture f = DispatchFixture.open(backend, dir);
                Pipeline p = f.pipeline(d -> CompletableFuture.completedFuture(SinkOutcome.delivered()), b -> b)) {
            AnkusaMetrics.builder().refreshInterval(Duration.ZERO).build().bindTo(registry, f.queue(), p);
            f.ingest("one", "a", 0);
            f.ingest("two", "b", 0);
            assertThat(DispatchFixture.await(p.tick()).delivered()).isEqualTo(2);

            awaitScrape(registry, "ankusa_ingest_hooks_total{outcome=\"accepted\",reason=\"none\"} 2.0",
                    "ankusa_attempts_seconds_count{outcome=\"delivered\"} 2", "ankusa_tick_seconds_count 1",
                    "ankusa_tenants 2.0");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theDiskGaugesShowTheStoreAndTheAttemptHistory(String backend) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.attemptsMaxBytes(1L << 20));
                Pipeline p = f.pipeline(d -> CompletableFuture.completedFuture(SinkOutcome.delivered()), b -> b)) {
            AnkusaMetrics metrics = AnkusaMetrics.builder().refreshInterval(Duration.ZERO).build();
            metrics.bindTo(registry, f.queue(), p);
            metrics.refresh();
            assertThat(gauge(registry, "ankusa_store_history_size_bytes")).as("no attempt yet").isZero();
            f.ingest("one", "a", 0);
            f.ingest("two", "b", 0);
            assertThat(DispatchFixture.await(p.tick()).delivered()).isEqualTo(2);
            metrics.refresh();
            long history = f.queue().diskUsage().historyBytes();
            assertThat(history).as("two entries, two keys each").isPositive();
            assertThat(gauge(registry, "ankusa_store_history_size_bytes")).isEqualTo(history);
            assertThat(gauge(registry, "ankusa_store_history_max_bytes")).isEqualTo(1L << 20);
            assertThat(gauge(registry, "ankusa_store_size_bytes")).as("the backend's size").isPositive();
        }
    }

    /** The value of the untagged gauge {@code name} in a scrape. */
    private static double gauge(PrometheusMeterRegistry registry, String name) {
        return registry.scrape().lines().filter(l -> l.startsWith(name + " ")).findFirst()
                .map(l -> Double.parseDouble(l.substring(name.length() + 1).trim()))
                .orElseThrow(() -> new AssertionError("no " + name + " in the scrape"));
    }

    /** Scrapes until every line is there (the listeners count on their own threads), for at most 30 s. */
    private static void awaitScrape(PrometheusMeterRegistry registry, String... lines) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String scrape = registry.scrape();
        while (!Arrays.stream(lines).allMatch(scrape::contains) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            scrape = registry.scrape();
        }
        assertThat(scrape).contains(lines);
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPrometheusScrapeShowsTheDocumentedMeters(String backend) throws Exception {
        AnkusaMetrics metrics = AnkusaMetrics.builder().topTenants(2).refreshInterval(Duration.ZERO).build();
        Forwarding events = new Forwarding(metrics);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.listener(events).tenantsMax(3))) {
            metrics.monitor(f.queue()).bindTo(registry);
            f.ingest("ok-1", "a", 0);
            f.ingest("ok-2", "a", 0);
            f.ingest("busy-1", "a", 0);
            f.ingest("ok-3", "b", 0);
            f.ingest("bad-1", "b", 0);
            f.ingest("ok-4", "c", 0);
            assertThat(f.queue().ingest(io.ankusa.tests.queue.QueueUnderTest.hook("x-1", "d", 0)))
                    .failsWithin(Duration.ofSeconds(30));
            events.await(7, 0);

            metrics.refresh();
            String before = registry.scrape();

            assertThat(before).contains(
                    "ankusa_deliveries_pending 6.0",
                    "ankusa_deliveries_scheduled 0.0",
                    "ankusa_deliveries_inflight 0.0",
                    "ankusa_deliveries_dead 0.0",
                    "ankusa_deliveries_bytes ",
                    "ankusa_archive_pending 0.0",
                    "ankusa_tenants 3.0",
                    "ankusa_backlog_age_seconds 0.0",
                    "ankusa_tenant_pending{tenant=\"a\"} 3.0",
                    "ankusa_tenant_pending{tenant=\"b\"} 2.0",
                    "ankusa_ingest_commit_seconds_count 7",
                    "ankusa_ingest_batch_size_count 7",
                    "ankusa_ingest_hooks_total{outcome=\"accepted\",reason=\"none\"} 6.0",
                    "ankusa_ingest_hooks_total{outcome=\"refused\",reason=\"tenant_limit\"} 1.0")
                    .as("only the top 2 tenants have a series").doesNotContain("tenant=\"c\"");

            try (Pipeline p = f.pipeline(d -> CompletableFuture.completedFuture(outcome(d.hookId())),
                    b -> b.listener(events))) {
                DispatchFixture.await(p.tick());
                events.await(7, 6);
            }
            metrics.refresh();
            String after = registry.scrape();

            assertThat(after).contains(
                    "ankusa_attempts_seconds_count{outcome=\"delivered\"} 4",
                    "ankusa_attempts_seconds_count{outcome=\"retry\"} 1",
                    "ankusa_attempts_seconds_count{outcome=\"dead\"} 1",
                    "ankusa_retries_total 1.0",
                    "ankusa_dead_lettered_total 1.0",
                    "ankusa_settled_total{result=\"delivered\"} 4.0",
                    "ankusa_settled_total{result=\"retried\"} 1.0",
                    "ankusa_settled_total{result=\"dead\"} 1.0",
                    "ankusa_tick_seconds_count 1",
                    "ankusa_tick_rows_sum 6.0",
                    "ankusa_tick_tenants_sum 3.0",
                    "ankusa_deliveries_pending 0.0",
                    "ankusa_deliveries_scheduled 1.0",
                    "ankusa_deliveries_dead 1.0")
                    .as("a tenant that left the top N loses its series").doesNotContain("ankusa_tenant_pending{tenant=\"b\"}");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theHealthMetersNameTheTroubledTenantsAtABoundedCardinality(String backend) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            // Eight tenants fail every attempt, at different rates of success: t0 never delivers.
            for (int t = 0; t < 8; t++) {
                for (int i = 0; i < 8; i++) {
                    f.ingest("h-" + t + "-" + i, "t" + t, 0);
                }
            }
            f.ingest("held-0", "held", 0);
            f.queue().disableEndpoint("held", 0);
            try (Pipeline p = f.pipeline(d -> CompletableFuture.completedFuture(
                    Integer.parseInt(d.hookId().substring(4)) < 8 - Integer.parseInt(d.hookId().substring(2, 3))
                            ? SinkOutcome.retry("http 503") : SinkOutcome.delivered()), b -> b)) {
                AnkusaMetrics metrics = AnkusaMetrics.builder().topTenants(3).refreshInterval(Duration.ZERO).build()
                        .bindTo(registry, f.queue(), p);
                DispatchFixture.await(p.tick());
                f.clock().advance(90_000);
                metrics.refresh();
                String scrape = registry.scrape();
                assertThat(scrape).contains(
                        "ankusa_tenant_failure_rate{tenant=\"t0\"} 1.0",
                        "ankusa_tenant_failure_rate{tenant=\"t1\"} 0.875",
                        "ankusa_tenant_failure_rate{tenant=\"t2\"} 0.75",
                        "ankusa_tenant_oldest_due_age_seconds{tenant=\"held\"} 90.0",
                        "ankusa_held_tenants{reason=\"endpoints\"} 1.0",
                        "ankusa_held_rows{reason=\"endpoints\"} 1.0",
                        "ankusa_held_age_seconds{reason=\"endpoints\"} 90.0",
                        "ankusa_held_tenants{reason=\"delivery_rate\"} 0.0",
                        "ankusa_backlog_deliverable_age_seconds 0.0");
                assertThat(scrape.lines().filter(l -> l.startsWith("ankusa_tenant_failure_rate{"))).hasSize(3);
                assertThat(scrape.lines().filter(l -> l.startsWith("ankusa_tenant_oldest_due_age_seconds{")))
                        .hasSizeLessThanOrEqualTo(3);
            }
        }
    }

    private static SinkOutcome outcome(String hookId) {
        if (hookId.startsWith("busy")) {
            return SinkOutcome.retry("http 503");
        }
        return hookId.startsWith("bad") ? SinkOutcome.dead("http 400") : SinkOutcome.delivered();
    }
}
