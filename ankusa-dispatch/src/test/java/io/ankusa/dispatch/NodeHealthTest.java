package io.ankusa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Rate;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.dispatch.report.DispatchHealth;
import io.ankusa.dispatch.report.HeldRows;
import io.ankusa.dispatch.report.TenantDispatch.Hold;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.tests.dispatch.DispatchFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A node's health turns DOWN for what is wrong with the node — a backlog the node should be
 * delivering and is not, a tick loop that died or hangs, a sink that stopped answering — and not
 * for rows held back by design: a disabled endpoint's waiting rows, a rate-limited tenant's backlog.
 * Both backends, on the fixture's hand-moved clock.
 */
class NodeHealthTest {

    private static final Duration MAX_AGE = Duration.ofMinutes(1);
    private static final HealthLimits LIMITS = HealthLimits.DEFAULTS.withMaxDeliverableAge(MAX_AGE);
    private static final long TEN_MINUTES = Duration.ofMinutes(10).toMillis();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDisabledEndpointsWaitingRowsDoNotTurnTheNodesHealthDown(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            for (int i = 0; i < 5; i++) {
                f.ingest("broken-" + i, "acme", 0);
            }
            f.queue().disableEndpoint("acme", 0);
            try (Pipeline pipeline = f.pipeline(d -> CompletableFuture.completedFuture(SinkOutcome.delivered()),
                    b -> b)) {
                DispatchFixture.await(pipeline.tick());
                f.clock().advance(TEN_MINUTES);
                // The same tenant's other endpoint, and another tenant, keep delivering behind the held rows.
                f.ingest("fine-0", "acme", 1);
                f.ingest("other-0", "globex", 0);
                DispatchFixture.await(pipeline.tick());
                f.clock().advance(TEN_MINUTES);
                f.ingest("fine-1", "acme", 1);
                DispatchFixture.await(pipeline.tick());

                DispatchHealth health = pipeline.dispatchHealth();
                assertThat(health.oldestDueAge()).as("the node-wide age counts the held rows")
                        .hasValueSatisfying(age -> assertThat(age).isGreaterThan(MAX_AGE));
                assertThat(health.oldestDeliverableAge()).as("nothing deliverable waits").isEmpty();
                HeldRows held = health.held(Hold.ENDPOINTS).orElseThrow();
                assertThat(held.tenants()).isEqualTo(1);
                assertThat(held.rows()).isEqualTo(5);
                assertThat(held.rowsComplete()).isTrue();
                assertThat(held.oldestAge()).contains(Duration.ofMillis(2 * TEN_MINUTES));
                NodeHealth node = NodeHealth.of(f.queue(), Optional.of(pipeline), LIMITS);
                assertThat(node.problems()).isEmpty();
                assertThat(node.status()).isEqualTo(NodeHealth.Status.UP);

                // Judged by the node-wide age, as without a pipeline, the same node is down.
                assertThat(NodeHealth.of(f.queue(), Optional.empty(), LIMITS).problems())
                        .extracting(NodeHealth.Problem::code).containsExactly(NodeHealth.Code.BACKLOG_TOO_OLD);

                // Re-enabled, the rows are deliverable again: they go at the next tick.
                f.queue().enableEndpoint("acme", 0);
                assertThat(DispatchFixture.await(pipeline.tick()).delivered()).isEqualTo(5);
                assertThat(pipeline.dispatchHealth().held()).isEmpty();
            }
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRateLimitedTenantsBacklogDoesNotTurnTheNodesHealthDown(String backend) {
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT,
                Map.of("slow", TenantPolicy.DEFAULT.withDeliveryRate(new Rate(1, 1))));
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.tenantPolicies(policies))) {
            for (int i = 0; i < 50; i++) {
                f.ingest("slow-" + i, "slow", 0);
            }
            try (Pipeline pipeline = f.pipeline(d -> CompletableFuture.completedFuture(SinkOutcome.delivered()),
                    b -> b)) {
                DispatchFixture.await(pipeline.tick());
                f.clock().advance(TEN_MINUTES);
                f.ingest("fast-0", "fast", 0);
                DispatchFixture.await(pipeline.tick());

                DispatchHealth health = pipeline.dispatchHealth();
                assertThat(health.oldestDueAge()).hasValueSatisfying(age -> assertThat(age).isGreaterThan(MAX_AGE));
                assertThat(health.oldestDeliverableAge()).isEmpty();
                HeldRows held = health.held(Hold.DELIVERY_RATE).orElseThrow();
                assertThat(held.tenants()).isEqualTo(1);
                assertThat(held.rows()).as("a token a second, at most two a tick").isBetween(45L, 49L);
                assertThat(NodeHealth.of(f.queue(), Optional.of(pipeline), LIMITS).status())
                        .isEqualTo(NodeHealth.Status.UP);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aBacklogTheNodeIsNotDeliveringTurnsItDown(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            for (int i = 0; i < 20; i++) {
                f.ingest("hook-" + i, "acme", 0);
            }
            try (Pipeline pipeline = f.pipeline(d -> CompletableFuture.completedFuture(SinkOutcome.delivered()),
                    b -> b.rowsPerTick(5))) {
                DispatchFixture.await(pipeline.tick());
                f.clock().advance(TEN_MINUTES);
                DispatchFixture.await(pipeline.tick());
                DispatchHealth health = pipeline.dispatchHealth();
                assertThat(health.held()).isEmpty();
                assertThat(health.oldestDeliverableAge()).contains(Duration.ofMillis(TEN_MINUTES));
                assertThat(NodeHealth.of(f.queue(), Optional.of(pipeline), LIMITS).problems())
                        .extracting(NodeHealth.Problem::code).containsExactly(NodeHealth.Code.BACKLOG_TOO_OLD);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aSinkThatNeverAnswersTurnsTheNodesHealthDown(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("hook-0", "acme", 0);
            // The deadline runs on real time: a short one ends the attempt without an outcome.
            try (Pipeline pipeline = f.pipeline(d -> new CompletableFuture<>(),
                    b -> b.sinkDeadline(Duration.ofMillis(20)))) {
                DispatchFixture.await(pipeline.tick());
                assertThat(pipeline.dispatchHealth().sinkSilentFor()).contains(Duration.ZERO);
                assertThat(NodeHealth.of(f.queue(), Optional.of(pipeline), LIMITS).status())
                        .isEqualTo(NodeHealth.Status.UP);

                f.clock().advance(Duration.ofMinutes(3).toMillis());
                NodeHealth node = NodeHealth.of(f.queue(), Optional.of(pipeline), LIMITS);
                assertThat(node.problems()).extracting(NodeHealth.Problem::code)
                        .containsExactly(NodeHealth.Code.SINK_SILENT);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aSinkThatAnswersWithFailuresIsNotSilent(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("hook-0", "acme", 0);
            try (Pipeline pipeline = f.pipeline(d -> CompletableFuture.completedFuture(
                    SinkOutcome.retry("503 from the endpoint")), b -> b)) {
                DispatchFixture.await(pipeline.tick());
                f.clock().advance(Duration.ofMinutes(3).toMillis());
                assertThat(pipeline.dispatchHealth().sinkSilentFor()).isEmpty();
                assertThat(NodeHealth.of(f.queue(), Optional.of(pipeline), LIMITS).status())
                        .isEqualTo(NodeHealth.Status.UP);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDeadTickThreadTurnsTheNodesHealthDown(String backend) throws InterruptedException {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("hook-0", "acme", 0);
            CountDownLatch thrown = new CountDownLatch(1);
            Pipeline pipeline = f.pipeline(d -> {
                thrown.countDown();
                throw new AssertionError("a sink that kills the thread calling it");
            }, b -> b);
            assertThat(NodeHealth.of(f.queue(), Optional.of(pipeline), LIMITS).status()).isEqualTo(NodeHealth.Status.UP);
            pipeline.start();
            assertThat(thrown.await(60, TimeUnit.SECONDS)).isTrue();
            // Close joins the tick thread: its failure is recorded by then.
            pipeline.close();
            NodeHealth node = NodeHealth.of(f.queue(), Optional.of(pipeline), LIMITS);
            assertThat(node.status()).isEqualTo(NodeHealth.Status.DOWN);
            assertThat(node.problems()).extracting(NodeHealth.Problem::code)
                    .containsExactly(NodeHealth.Code.QUEUE_NOT_RUNNING);
            assertThat(node.problems().get(0).message()).contains("dispatch tick loop");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHangingTickLoopTurnsTheNodesHealthDown(String backend) throws InterruptedException {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("hook-0", "acme", 0);
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            try (Pipeline pipeline = f.pipeline(d -> {
                // Blocks the tick thread that calls it: the loop cannot end its tick.
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }, b -> b)) {
                try {
                    pipeline.start();
                    assertThat(entered.await(60, TimeUnit.SECONDS)).isTrue();
                    assertThat(NodeHealth.of(f.queue(), Optional.of(pipeline), LIMITS).status())
                            .isEqualTo(NodeHealth.Status.UP);
                    f.clock().advance(Duration.ofMinutes(2).toMillis());
                    NodeHealth node = NodeHealth.of(f.queue(), Optional.of(pipeline), LIMITS);
                    assertThat(node.problems()).extracting(NodeHealth.Problem::code)
                            .containsExactly(NodeHealth.Code.TICK_LOOP_SILENT);
                } finally {
                    // Closing the pipeline joins the tick thread: it must leave the sink first.
                    release.countDown();
                }
            }
        }
    }
}
