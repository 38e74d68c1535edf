package io.ankusa.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.QueueListener;
import io.ankusa.api.events.TickFinished;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.micrometer.AnkusaMetrics;
import io.ankusa.queue.Queue;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The starter's binder as Spring Boot's Prometheus registry scrapes it, over a real queue and
 * pipeline: six tenants whose every attempt fails, six more whose deliveries wait behind an
 * attempt that does not end (in-flight limit 1), and {@code ankusa.metrics.top-tenants=3}. The
 * scrape names the node, event and health meters with their tags, and each per-tenant family holds
 * exactly the top 3 tenants, never more, although 6 qualify for each.
 */
class PrometheusScrapeTest {

    private static final int TOP = 3;
    private static final int FAILING = 6;
    private static final int WAITING = 6;
    private static final Pattern TENANT = Pattern.compile("tenant=\"([^\"]+)\"");

    @TempDir
    Path dir;

    @Test
    void theScrapeNamesTheMetersAndHoldsAtMostTopTenantsSeriesPerFamily() {
        CountDownLatch failedSettles = new CountDownLatch(FAILING * 6);
        CountDownLatch waitingAttempts = new CountDownLatch(WAITING);
        AtomicReference<CountDownLatch> ticks = new AtomicReference<>(new CountDownLatch(0));
        List<CompletableFuture<SinkOutcome>> held = new CopyOnWriteArrayList<>();
        Sink sink = delivery -> {
            if (delivery.tenantId().startsWith("failing-")) {
                return CompletableFuture.completedFuture(SinkOutcome.dead("refused by the test"));
            }
            CompletableFuture<SinkOutcome> never = new CompletableFuture<>();
            held.add(never);
            waitingAttempts.countDown();
            return never;
        };
        QueueListener listener = new QueueListener() {
            @Override
            public void onSettled(DeliverySettled event) {
                if (event.tenant().startsWith("failing-")) {
                    failedSettles.countDown();
                }
            }

            @Override
            public void onTick(TickFinished event) {
                ticks.get().countDown();
            }
        };
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        CompositeMeterRegistryAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
                        AnkusaMetricsAutoConfiguration.class, AnkusaAutoConfiguration.class))
                .withBean(Sink.class, () -> sink)
                .withBean(QueueListener.class, () -> listener)
                .withBean(TenantPolicies.class, () -> TenantPolicies.uniform(TenantPolicy.DEFAULT.withMaxInflight(1)))
                .withPropertyValues("ankusa.directory=" + dir, "ankusa.housekeeping.interval=0s",
                        "ankusa.pipeline.tick-interval=20ms", "ankusa.metrics.top-tenants=" + TOP,
                        "ankusa.metrics.refresh-interval=0s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Queue queue = context.getBean(Queue.class);
                    try {
                        for (int t = 0; t < FAILING; t++) {
                            for (int i = 0; i < 6; i++) {
                                queue.ingest(hook("failing-" + t, "f" + i)).get(60, TimeUnit.SECONDS);
                            }
                        }
                        for (int t = 0; t < WAITING; t++) {
                            for (int i = 0; i < 4; i++) {
                                queue.ingest(hook("waiting-" + t, "w" + i)).get(60, TimeUnit.SECONDS);
                            }
                        }
                        assertThat(failedSettles.await(60, TimeUnit.SECONDS)).as("every failing attempt settled")
                                .isTrue();
                        assertThat(waitingAttempts.await(60, TimeUnit.SECONDS)).as("each waiting tenant's first")
                                .isTrue();
                        // Two more ticks: the scheduler has visited the waiting tenants since their first claim.
                        CountDownLatch twoTicks = new CountDownLatch(2);
                        ticks.set(twoTicks);
                        assertThat(twoTicks.await(60, TimeUnit.SECONDS)).isTrue();

                        PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
                        context.getBean(AnkusaMetrics.class).refresh();
                        String first = registry.scrape();
                        context.getBean(AnkusaMetrics.class).refresh();
                        String scrape = registry.scrape();

                        assertThat(scrape).contains("ankusa_deliveries_dead " + (FAILING * 6) + ".0")
                                .contains("ankusa_deliveries_pending " + (WAITING * 3) + ".0")
                                .contains("ankusa_deliveries_inflight " + WAITING + ".0")
                                .contains("ankusa_tenants " + (FAILING + WAITING) + ".0")
                                .contains("ankusa_attempts_seconds_count{outcome=\"dead\"} " + (FAILING * 6) + "\n")
                                .contains("ankusa_settled_total{result=\"dead\"} " + (FAILING * 6) + ".0")
                                .contains("ankusa_held_tenants{reason=\"in_flight_limit\"}")
                                .contains("ankusa_backlog_deliverable_age_seconds")
                                .contains("ankusa_ingest_commit_seconds_count");
                        for (String text : List.of(first, scrape)) {
                            Set<String> pending = tenants(text, "ankusa_tenant_pending");
                            Set<String> oldest = tenants(text, "ankusa_tenant_oldest_due_age_seconds");
                            Set<String> failing = tenants(text, "ankusa_tenant_failure_rate");
                            assertThat(pending).hasSizeLessThanOrEqualTo(TOP);
                            assertThat(oldest).hasSizeLessThanOrEqualTo(TOP);
                            assertThat(failing).hasSizeLessThanOrEqualTo(TOP);
                        }
                        assertThat(tenants(scrape, "ankusa_tenant_pending")).hasSize(TOP)
                                .allMatch(t -> t.startsWith("waiting-"));
                        assertThat(tenants(scrape, "ankusa_tenant_oldest_due_age_seconds")).hasSize(TOP)
                                .allMatch(t -> t.startsWith("waiting-"));
                        assertThat(tenants(scrape, "ankusa_tenant_failure_rate")).hasSize(TOP)
                                .allMatch(t -> t.startsWith("failing-"));
                        assertThat(scrape)
                                .containsPattern("ankusa_tenant_failure_rate\\{tenant=\"failing-\\d\"} 1\\.0");
                    } finally {
                        held.forEach(f -> f.complete(SinkOutcome.delivered()));
                    }
                });
    }

    /** The tenants of one family's series in a scrape. */
    private static Set<String> tenants(String scrape, String family) {
        Set<String> tenants = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith(family + "{")) {
                Matcher m = TENANT.matcher(line);
                assertThat(m.find()).as(line).isTrue();
                tenants.add(m.group(1));
            }
        }
        return tenants;
    }

    private static Hook hook(String tenant, String id) {
        return Hook.builder().id(id).sourceId("test").tenantId(tenant).payload("{}").sinks(0).build();
    }
}
