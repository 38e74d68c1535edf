package io.ankusa.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.DiskUsage;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.HealthLimits;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The indicator judges the node, not one tenant: a disabled endpoint's old rows are a detail under
 * {@code held}, the node stays UP; the same rows judged without the pipeline's knowledge turn it DOWN.
 */
class AnkusaHealthIndicatorTest {

    @TempDir
    Path dir;

    /** A clock the test moves by hand. */
    private static final class HandClock implements InstantSource {
        private final AtomicLong millis = new AtomicLong(1_767_225_600_000L);

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    }

    @Test
    void aDisabledEndpointsWaitingRowsAreHeldAndTheNodeStaysUp() throws Exception {
        HandClock clock = new HandClock();
        try (Queue queue = Queue.open(QueueConfig.builder(dir).clock(clock).build())) {
            for (int i = 0; i < 3; i++) {
                queue.ingest(Hook.builder().id("hook-" + i).sourceId("test").tenantId("acme").sinks(0)
                        .payload("{}".getBytes(StandardCharsets.UTF_8)).build()).toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);
            }
            queue.disableEndpoint("acme", 0);
            try (Pipeline pipeline = Pipeline.builder(queue,
                    d -> CompletableFuture.completedFuture(SinkOutcome.delivered())).manual()) {
                pipeline.tick().toCompletableFuture().get(30, TimeUnit.SECONDS);
                clock.millis.addAndGet(Duration.ofMinutes(30).toMillis());
                HealthLimits limits = HealthLimits.DEFAULTS.withMaxDeliverableAge(Duration.ofMinutes(5));

                Health health = new AnkusaHealthIndicator(queue, () -> Optional.of(pipeline), limits).health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails()).containsEntry("state", "RUNNING")
                        .containsEntry("oldestDueAge", "PT30M").containsEntry("maxOldestDueAge", "PT5M")
                        .doesNotContainKey("oldestDeliverableAge");
                assertThat(health.getDetails().get("held")).isEqualTo(Map.of("ENDPOINTS",
                        Map.of("tenants", 1L, "rows", 3L, "rowsComplete", true, "oldestAge", "PT30M")));

                Health judgedByEveryRow = new AnkusaHealthIndicator(queue, Optional::empty, limits).health();
                assertThat(judgedByEveryRow.getStatus()).isEqualTo(Status.DOWN);
                assertThat(judgedByEveryRow.getDetails()).containsKey("problems")
                        .hasEntrySatisfying("reason", r -> assertThat((String) r).contains("PT30M"));
            }
        }
    }

    @Test
    void theDiskFiguresAreDetailsAndNeverTurnTheNodeDown() throws Exception {
        HandClock clock = new HandClock();
        // A bound far below what the history holds: still only a detail.
        try (Queue queue = Queue.open(QueueConfig.builder(dir).clock(clock).attemptsMaxBytes(1)
                .housekeepingInterval(Duration.ZERO).build())) {
            queue.ingest(Hook.builder().id("hook-1").sourceId("test").tenantId("acme").sinks(0)
                    .payload("{}".getBytes(StandardCharsets.UTF_8)).build()).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            try (Pipeline pipeline = Pipeline.builder(queue,
                    d -> CompletableFuture.completedFuture(SinkOutcome.delivered())).manual()) {
                pipeline.tick().toCompletableFuture().get(30, TimeUnit.SECONDS);
                Health health = new AnkusaHealthIndicator(queue, () -> Optional.of(pipeline), HealthLimits.DEFAULTS)
                        .health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                DiskUsage disk = queue.diskUsage();
                assertThat(disk.historyBytes()).as("the delivered attempt's entry").isGreaterThan(1);
                assertThat(health.getDetails().get("disk")).isEqualTo(Map.of("storeBytes", disk.storeBytes(),
                        "historyBytes", disk.historyBytes(), "historyMaxBytes", 1L));
            }
        }
    }
}
