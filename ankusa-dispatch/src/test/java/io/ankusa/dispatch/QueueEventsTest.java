package io.ankusa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantLimitException;
import io.ankusa.api.events.AttemptFinished;
import io.ankusa.api.events.AttemptOutcome;
import io.ankusa.api.events.DeadLettered;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.EndpointState;
import io.ankusa.api.events.EndpointStateChanged;
import io.ankusa.api.events.IngestCommitted;
import io.ankusa.api.events.Quarantined;
import io.ankusa.api.events.RetryScheduled;
import io.ankusa.api.events.TickFinished;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.tests.dispatch.DispatchFixture;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The events of the queue and the pipeline: one test per kind, on both backends. */
class QueueEventsTest {

    @TempDir
    Path dir;

    private final RecordingListener listener = new RecordingListener();

    /** A sink that answers by hook id: the id's prefix before '-' names the outcome. */
    private static Sink answering(Function<String, SinkOutcome> byHookId) {
        return delivery -> CompletableFuture.completedFuture(byHookId.apply(delivery.hookId()));
    }

    private static SinkOutcome byPrefix(String hookId) {
        String kind = hookId.substring(0, hookId.indexOf('-'));
        return switch (kind) {
            case "ok" -> SinkOutcome.delivered();
            case "busy" -> new SinkOutcome.Retry(java.util.Optional.empty(), "http 503", OptionalInt.of(503),
                    io.ankusa.api.AttemptErrorClass.HTTP_5XX);
            case "bad" -> SinkOutcome.dead("http 400 (configured as permanent)");
            case "gone" -> SinkOutcome.endpointGone("http 410: the endpoint asked not to be sent more");
            default -> throw new AssertionError(kind);
        };
    }

    private Pipeline pipeline(DispatchFixture f) {
        return f.pipeline(answering(QueueEventsTest::byPrefix), b -> b.listener(listener));
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void ingestCommittedCountsEveryOutcomeByReason(String backend) throws Exception {
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.tenantsMax(1).listener(listener))) {
            Hook first = Hook.builder().id("h-1").sourceId("s").tenantId("a").payload("{}").idempotencyKey("k").sinks(0)
                    .build();
            f.ingest(first);
            f.ingest(Hook.builder().id("h-2").sourceId("s").tenantId("a").payload("{}").idempotencyKey("k").sinks(0)
                    .build());
            ExecutionException refused = org.assertj.core.api.Assertions.catchThrowableOfType(ExecutionException.class,
                    () -> f.queue().ingest(QueueUnderTest.hook("h-3", "b", 0)).get());
            assertThat(refused.getCause()).isInstanceOf(TenantLimitException.class);

            List<IngestCommitted> batches = listener.await(IngestCommitted.class, 3);

            assertThat(batches).allSatisfy(b -> assertThat(b.batchSize()).isEqualTo(1));
            assertThat(batches.stream().mapToInt(IngestCommitted::accepted).sum()).isEqualTo(1);
            assertThat(batches.stream().mapToInt(IngestCommitted::duplicates).sum()).isEqualTo(1);
            assertThat(batches.stream().mapToInt(IngestCommitted::failed).sum()).isZero();
            assertThat(batches.get(2).refused()).isEqualTo(Map.of("tenant_limit", 1));
            assertThat(batches.get(0).latency()).isPositive();
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void attemptFinishedNamesTenantSinkOutcomeStatusAndLatency(String backend) throws Exception {
        try (DispatchFixture f = DispatchFixture.open(backend, dir); Pipeline p = pipeline(f)) {
            f.ingest("ok-1", "a", 0);
            f.ingest("busy-1", "b", 3);
            DispatchFixture.await(p.tick());

            List<AttemptFinished> attempts = listener.await(AttemptFinished.class, 2);

            AttemptFinished ok = attempts.stream().filter(a -> a.hookId().equals("ok-1")).findFirst().orElseThrow();
            assertThat(ok.tenant()).isEqualTo("a");
            assertThat(ok.sink()).isZero();
            assertThat(ok.attempt()).isEqualTo(1);
            assertThat(ok.outcome()).isEqualTo(AttemptOutcome.DELIVERED);
            assertThat(ok.status()).isEmpty();
            assertThat(ok.latency().isNegative()).isFalse();
            AttemptFinished busy = attempts.stream().filter(a -> a.hookId().equals("busy-1")).findFirst().orElseThrow();
            assertThat(busy.tenant()).isEqualTo("b");
            assertThat(busy.sink()).isEqualTo(3);
            assertThat(busy.outcome()).isEqualTo(AttemptOutcome.RETRY);
            assertThat(busy.status()).isEqualTo(OptionalInt.of(503));
            assertThat(busy.reason()).isEqualTo("http 503");
            assertThat(busy.errorClass()).isEqualTo(io.ankusa.api.AttemptErrorClass.HTTP_5XX);
            assertThat(ok.errorClass()).isEqualTo(io.ankusa.api.AttemptErrorClass.NONE);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void retryScheduledSaysWhenTheNextAttemptIsDue(String backend) throws Exception {
        try (DispatchFixture f = DispatchFixture.open(backend, dir); Pipeline p = pipeline(f)) {
            f.ingest("busy-1", "a", 0);
            long now = f.now();
            DispatchFixture.await(p.tick());

            RetryScheduled retry = listener.await(RetryScheduled.class, 1).get(0);

            assertThat(retry.tenant()).isEqualTo("a");
            assertThat(retry.hookId()).isEqualTo("busy-1");
            assertThat(retry.attempt()).isEqualTo(1);
            assertThat(retry.reason()).isEqualTo("http 503");
            assertThat(retry.nextAttempt().toEpochMilli()).isGreaterThan(now);
            assertThat(f.ledger().dueForTenant(f.ord("a"), retry.nextAttempt().toEpochMilli(), 0, 10, Long.MAX_VALUE))
                    .as("the row is due at the announced time").hasSize(1);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void deadLetteredCarriesTheStoredReason(String backend) throws Exception {
        try (DispatchFixture f = DispatchFixture.open(backend, dir); Pipeline p = pipeline(f)) {
            f.ingest("bad-1", "a", 2);
            DispatchFixture.await(p.tick());

            DeadLettered dead = listener.await(DeadLettered.class, 1).get(0);

            assertThat(dead).isEqualTo(new DeadLettered("a", "bad-1", 2, 1, "http 400 (configured as permanent)"));
            assertThat(f.queue().deadForTenant("a").dead()).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void settledReportsEveryClaimedRowOnce(String backend) throws Exception {
        try (DispatchFixture f = DispatchFixture.open(backend, dir); Pipeline p = pipeline(f)) {
            Receipt ok = f.ingest("ok-1", "a", 0);
            Receipt busy = f.ingest("busy-1", "a", 1);
            Receipt bad = f.ingest("bad-1", "b", 0);
            DispatchFixture.await(p.tick());

            List<DeliverySettled> settled = listener.await(DeliverySettled.class, 3);

            assertThat(settled).containsExactlyInAnyOrder(
                    new DeliverySettled("a", "ok-1", ok.seq(), 0, DeliverySettled.Result.DELIVERED),
                    new DeliverySettled("a", "busy-1", busy.seq(), 1, DeliverySettled.Result.RETRIED),
                    new DeliverySettled("b", "bad-1", bad.seq(), 0, DeliverySettled.Result.DEAD));
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void endpointStateChangedOnlyOnAChange(String backend) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean gone = new java.util.concurrent.atomic.AtomicBoolean(true);
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.listener(listener));
                Pipeline p = f.pipeline(answering(id -> gone.get() ? byPrefix("gone-") : byPrefix("ok-")),
                        b -> b.listener(listener))) {
            f.ingest("h-1", "a", 5);
            f.ingest("h-2", "a", 5);
            DispatchFixture.await(p.tick());
            listener.await(AttemptFinished.class, 2);
            // The settler publishes the disable after the attempts' events: wait for it before the
            // operator's enable, whose event the test thread publishes at once.
            listener.await(EndpointStateChanged.class, 1);
            gone.set(false);
            f.queue().enableEndpoint("a", 5);
            f.queue().enableEndpoint("a", 5);
            f.ingest("h-3", "a", 5);
            DispatchFixture.await(p.tick());
            listener.await(AttemptFinished.class, 5);

            List<EndpointStateChanged> changes = listener.await(EndpointStateChanged.class, 2);

            // Disabled once by the stored 410 (the second 410 finds it disabled), enabled once by the
            // operator (the second enable changes nothing), and the delivery after it changes nothing.
            assertThat(changes).extracting(EndpointStateChanged::tenant, EndpointStateChanged::sink,
                    EndpointStateChanged::previous, EndpointStateChanged::state).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("a", 5, EndpointState.ACTIVE, EndpointState.DISABLED),
                    org.assertj.core.groups.Tuple.tuple("a", 5, EndpointState.DISABLED, EndpointState.ACTIVE));
            assertThat(changes.get(0).reason()).startsWith("gone: " + SinkOutcome.ENDPOINT_GONE);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void tickReportsRowsTenantsAndDuration(String backend) throws Exception {
        try (DispatchFixture f = DispatchFixture.open(backend, dir); Pipeline p = pipeline(f)) {
            f.ingest("ok-1", "a", 0, 1);
            f.ingest("ok-2", "b", 0);
            DispatchFixture.await(p.tick());

            TickFinished tick = listener.await(TickFinished.class, 1).get(0);

            assertThat(tick.rows()).isEqualTo(3);
            assertThat(tick.tenants()).isEqualTo(2);
            assertThat(tick.startedAt().toEpochMilli()).isEqualTo(f.now());
            assertThat(tick.duration()).isPositive();
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void quarantinedReachesTheQueuesListeners(String backend) throws Exception {
        // The quarantine publishes through the queue's hand-off; this pins the channel.
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.listener(listener))) {
            Quarantined event = new Quarantined("hook", 42, -1, "envelope version 9 is unknown");
            ((QueueEngine) f.queue()).events().publish(l -> l.onQuarantined(event));

            assertThat(listener.await(Quarantined.class, 1)).containsExactly(event);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aQueueListenerDoesNotHearThePipelinesEventsNorTheOtherWayRound(String backend) throws Exception {
        RecordingListener pipelineOnly = new RecordingListener();
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.listener(listener));
                Pipeline p = f.pipeline(answering(QueueEventsTest::byPrefix), b -> b.listener(pipelineOnly))) {
            f.ingest("ok-1", "a", 0);
            DispatchFixture.await(p.tick());
            pipelineOnly.await(DeliverySettled.class, 1);
            listener.await(IngestCommitted.class, 1);

            assertThat(listener.all(DeliverySettled.class)).isEmpty();
            assertThat(pipelineOnly.all(IngestCommitted.class)).isEmpty();
        }
    }
}
