package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.Prefixes;
import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.store.Durability;
import io.ankusa.store.WriteBatch;
import io.ankusa.testkit.ScriptedSink;
import io.ankusa.tests.support.RecordingStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The pipeline's tick, driven one tick at a time with a hand-moved clock, on both backends. */
class DispatchTickTest {

    @TempDir
    Path dir;

    /** One hour, no jitter, for rows that must stay scheduled far ahead. */
    private static final RetryPolicy AN_HOUR_LATER = RetryPolicy.builder()
            .schedule(List.of(Duration.ofHours(1))).jitter(0).build();

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTickVisitsOnlyTenantsWithWork(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            // 997 tenants whose only rows are scheduled an hour ahead (odd) or dead (even).
            ScriptedSink sink = new ScriptedSink(d -> Integer.parseInt(d.tenantId().substring(1)) % 2 == 1
                    ? SinkOutcome.retry("HTTP 503") : SinkOutcome.dead("HTTP 410"));
            try (Pipeline pipeline = f.pipeline(sink, b -> b.retryPolicy(AN_HOUR_LATER).concurrency(1024))) {
                List<CompletableFuture<?>> receipts = new ArrayList<>();
                for (int t = 3; t < 1000; t++) {
                    receipts.add(f.queue().ingest(io.ankusa.tests.queue.QueueUnderTest.hook("h" + t, "t" + t, 0)));
                }
                receipts.forEach(r -> r.join());
                TickReport first = DispatchFixture.await(pipeline.tick());
                assertThat(first.claimed()).isEqualTo(997);
                assertThat(first.retried() + first.dead()).isEqualTo(997);
                f.clock().advance(2_000);
                // The markers of the first second are stale now; the next tick's cleanup removes them.
                assertThat(DispatchFixture.await(pipeline.tick()).claimed()).isZero();

                for (int t = 0; t < 3; t++) {
                    f.ingest("new" + t, "t" + t, 0);
                }
                f.recorder().clear();
                TickReport tick = DispatchFixture.await(pipeline.tick());
                assertThat(tick.tenantsVisited()).as("tenants visited").isEqualTo(3);
                assertThat(tick.claimed()).isEqualTo(3);
                assertThat(tick.delivered() + tick.retried() + tick.dead()).isEqualTo(3);
                List<RecordingStore.Call> calls = f.recorder().calls("scan");

                assertThat(f.queue().tenantCount()).isEqualTo(1000);
                assertThat(pipeline.gauges().dispatchActiveTenants()).isEqualTo(3);
                Set<Long> dueRangesScanned = calls.stream().map(c -> c.range().orElseThrow().from())
                        .filter(from -> from.length > 0 && from[0] == Prefixes.DUE)
                        .map(from -> ByteBuffer.wrap(from, 1, 4).getInt() & 0xFFFF_FFFFL)
                        .collect(Collectors.toCollection(TreeSet::new));
                assertThat(dueRangesScanned).as("tenants whose due range the tick read")
                        .containsExactlyInAnyOrder(f.ord("t0"), f.ord("t1"), f.ord("t2"));
            }
            assertThat(f.queue().stats().scheduled()).isEqualTo(499 + 1);
            assertThat(f.queue().stats().dead()).isEqualTo(498 + 2);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void tenantsTakeTurnsInActiveIndexOrderAndRowsGoInDueTimeOrderWithinATenant(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("a1", "a", 0);          // second s, +0 ms
            f.clock().advance(500);
            f.ingest("b1", "b", 0);          // second s, +500 ms
            f.clock().advance(400);
            f.ingest("a2", "a", 0);          // second s, +900 ms
            f.clock().advance(200);
            f.ingest("b2", "b", 0);          // second s + 1, +100 ms
            f.ingest("c1", "c", 0);          // second s + 1, +100 ms
            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b)) {
                DispatchFixture.await(pipeline.tick());
            }
            // Not global oldest-first (which would be a1 b1 a2 b2 c1) but the scheduler's round-robin:
            // tenants join the ring in the order the feed first reads their markers — (s, a), (s, b),
            // (s + 1, c) — and each takes its turn (here the whole tick has room for every row of
            // every tenant, so one turn each) with its due rows in due-time order.
            assertThat(sink.hookIds()).containsExactly("a1", "a2", "b1", "b2", "c1");
            f.assertConsistent();
            assertThat(f.queue().stats().pending()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTickClaimsNoMoreThanItsRowLimitAndTheFreeSinkSlots(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            for (int i = 0; i < 10; i++) {
                f.ingest("h" + i, "t", 0);
                f.clock().advance(1);
            }
            List<CompletableFuture<SinkOutcome>> answers = new ArrayList<>();
            List<Delivery> seen = new ArrayList<>();
            try (Pipeline pipeline = f.pipeline(d -> {
                CompletableFuture<SinkOutcome> answer = new CompletableFuture<>();
                synchronized (answers) {
                    answers.add(answer);
                    seen.add(d);
                }
                return answer;
            }, b -> b.rowsPerTick(3).concurrency(4))) {
                CompletionStage<TickReport> first = pipeline.tick();
                CompletionStage<TickReport> second = pipeline.tick();
                CompletionStage<TickReport> third = pipeline.tick();
                assertThat(seen).extracting(Delivery::hookId).containsExactly("h0", "h1", "h2", "h3");
                assertThat(f.queue().stats().inflight()).isEqualTo(4);
                assertThat(third.toCompletableFuture().join().claimed()).as("no free slot").isZero();

                synchronized (answers) {
                    answers.forEach(a -> a.complete(SinkOutcome.delivered()));
                }
                assertThat(DispatchFixture.await(first).delivered()).isEqualTo(3);
                assertThat(DispatchFixture.await(second).delivered()).isEqualTo(1);
                f.clock().advance(1_500);
                List<TickReport> rest = new ArrayList<>();
                while (f.queue().stats().pending() > 0) {
                    CompletionStage<TickReport> tick = pipeline.tick();
                    synchronized (answers) {
                        answers.forEach(a -> a.complete(SinkOutcome.delivered()));
                    }
                    rest.add(DispatchFixture.await(tick));
                }
                assertThat(rest).extracting(TickReport::claimed).containsExactly(3, 3);
                assertThat(seen).extracting(Delivery::hookId)
                        .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "h" + i).toList());
            }
            f.assertConsistent();
            assertThat(f.queue().stats().bytes()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDeliveryCarriesTheHookItsTenantAndTheAttempt(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest(io.ankusa.api.Hook.builder().id("msg_1").sourceId("billing").tenantId("acme")
                    .header("Content-Type", "application/json").header("X-Trace", "7")
                    .payload("{\"n\":1}").sinks(3).build());
            f.ingest(io.ankusa.api.Hook.builder().id("msg_2").sourceId("billing").payload("{}").sinks(0).build());
            long ingestedAt = f.now();
            f.clock().advance(250);
            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b)) {
                DispatchFixture.await(pipeline.tick());
            }
            Delivery d = sink.seen().stream().filter(x -> x.hookId().equals("msg_1")).findFirst().orElseThrow();
            assertThat(d.sourceId()).isEqualTo("billing");
            assertThat(d.tenantId()).isEqualTo("acme");
            assertThat(d.sink()).isEqualTo(3);
            assertThat(d.attempt()).isEqualTo(1);
            assertThat(d.headers()).containsExactly(java.util.Map.entry("Content-Type", "application/json"),
                    java.util.Map.entry("X-Trace", "7"));
            assertThat(new String(d.payload(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("{\"n\":1}");
            assertThat(d.ingestedAt().toEpochMilli()).isEqualTo(ingestedAt);
            assertThat(d.attemptedAt().toEpochMilli()).isEqualTo(ingestedAt + 250);
            assertThat(sink.seen()).filteredOn(x -> x.hookId().equals("msg_2")).singleElement()
                    .satisfies(x -> assertThat(x.tenantId()).isEqualTo("default"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRowWhoseHookIsGoneIsDroppedThroughTheCountedPath(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            long seq = f.ingest("lost", "t", 0, 1).seq();
            f.ingest("kept", "t", 0);
            f.store().commit(new WriteBatch().delete(ColumnFamilies.HOOKS, new HookKey(seq).encode()), Durability.SYNC);
            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b)) {
                TickReport tick = DispatchFixture.await(pipeline.tick());
                assertThat(tick.claimed()).isEqualTo(1);
                assertThat(tick.dropped()).isEqualTo(2);
                assertThat(tick.delivered()).isEqualTo(1);
            }
            assertThat(sink.hookIds()).containsExactly("kept");
            f.assertConsistent();
            assertThat(f.queue().stats()).isEqualTo(new io.ankusa.api.QueueStats(0, 0, 0, 0, 0, 0));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aSinkThatNeverAnswersIsRetriedAfterTheDeadline(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("h", "t", 0);
            try (Pipeline pipeline = f.pipeline(d -> new CompletableFuture<>(),
                    b -> b.sinkDeadline(Duration.ofMillis(50)).retryPolicy(AN_HOUR_LATER))) {
                TickReport tick = DispatchFixture.await(pipeline.tick());
                assertThat(tick.retried()).isEqualTo(1);
            }
            DueRow row = f.ledger().firstDue(f.ord("t")).orElseThrow();
            assertThat(row.kind()).isEqualTo(DueKind.RETRY);
            assertThat(row.at()).isEqualTo(f.now() + Duration.ofHours(1).toMillis());
            assertThat(f.queue().stats().scheduled()).isEqualTo(1);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aSinkThatThrowsOrFailsItsStageCostsARetryNeverTheHook(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("throws", "t", 0);
            f.ingest("fails", "t", 1);
            f.ingest("null", "t", 2);
            try (Pipeline pipeline = f.pipeline(d -> switch (d.sink()) {
                case 0 -> throw new IllegalStateException("bug");
                case 1 -> CompletableFuture.failedFuture(new IllegalStateException("bug"));
                default -> null;
            }, b -> b.retryPolicy(AN_HOUR_LATER))) {
                TickReport tick = DispatchFixture.await(pipeline.tick());
                assertThat(tick.retried()).isEqualTo(3);
            }
            assertThat(f.queue().stats().scheduled()).isEqualTo(3);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTenantWithMoreRowsThanATicksLimitIsDrainedOverTicksInDueTimeOrder(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                f.ingest("h" + i, "t", 0);
                expected.add("h" + i);
                f.clock().advance(i % 5 == 4 ? 700 : 30);
            }
            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b.rowsPerTick(4))) {
                int ticks = 0;
                while (f.queue().stats().pending() > 0) {
                    DispatchFixture.await(pipeline.tick());
                    ticks++;
                }
                assertThat(ticks).isEqualTo(7);
            }
            assertThat(sink.hookIds()).containsExactlyElementsOf(expected);
            f.assertConsistent();
            assertThat(f.ledger().activeTenants(f.now(), 10)).as("markers left before the current second").allSatisfy(
                    m -> assertThat(m.bucket()).isEqualTo(f.now() / 1000));
        }
    }
}
