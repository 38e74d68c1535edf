package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.queue.deliveries.DeliveryRow;
import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.testkit.ScriptedSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Retries through the pipeline with a hand-moved clock: the schedule, hints, the DLQ and replay. */
class RetryScheduleTest {

    @TempDir
    Path dir;

    /** The default schedule's delays after failed attempts 1..9 (docs/delivery.md). */
    private static final List<Duration> SCHEDULE = List.of(Duration.ofSeconds(5), Duration.ofMinutes(5),
            Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10),
            Duration.ofHours(14), Duration.ofHours(20), Duration.ofHours(24));

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookFailingEveryAttemptGoesThroughTheScheduleToTheDlqAndAReplayIsDelivered(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            long seq = f.ingest("msg_1", "acme", 0).seq();
            long ord = f.ord("acme");
            long size = f.queue().pendingForTenant("acme").bytes();
            AtomicBoolean receiverUp = new AtomicBoolean(false);
            ScriptedSink sink = new ScriptedSink(d -> receiverUp.get() ? SinkOutcome.delivered() : SinkOutcome.retry("HTTP 503"));
            List<Long> attemptTimes = new ArrayList<>();
            try (Pipeline pipeline = f.pipeline(sink, b -> b.retryPolicy(RetryPolicy.defaults())
                    .random(new SplittableRandom(42)))) {
                for (int attempt = 1; attempt <= 10; attempt++) {
                    attemptTimes.add(f.now());
                    TickReport tick = DispatchFixture.await(pipeline.tick());
                    assertThat(tick.claimed()).as("attempt %d", attempt).isEqualTo(1);
                    f.assertConsistent();
                    if (attempt < 10) {
                        assertThat(tick.retried()).isEqualTo(1);
                        DueRow next = f.ledger().firstDue(ord).orElseThrow();
                        assertThat(next.kind()).isEqualTo(DueKind.RETRY);
                        assertThat(f.queue().stats()).isEqualTo(new QueueStats(0, 1, 0, 0, size, 0));
                        long delay = next.at() - f.now();
                        long base = SCHEDULE.get(attempt - 1).toMillis();
                        assertThat(delay).as("delay after attempt %d", attempt)
                                .isBetween(Math.round(base * 0.8), Math.round(base * 1.2));
                        f.clock().advance(delay);
                    } else {
                        assertThat(tick.dead()).isEqualTo(1);
                    }
                }
                assertThat(sink.seen()).extracting(Delivery::attempt).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
                assertThat(sink.seen()).extracting(d -> d.attemptedAt().toEpochMilli()).containsExactlyElementsOf(attemptTimes);
                long total = SCHEDULE.stream().mapToLong(Duration::toMillis).sum();
                assertThat(total).as("3 days 3 h 35 min 5 s before jitter").isEqualTo(272_105_000);
                assertThat(attemptTimes.get(9) - attemptTimes.get(0)).as("first to last attempt")
                        .isBetween(Math.round(total * 0.8), Math.round(total * 1.2));

                assertThat(f.queue().stats()).isEqualTo(new QueueStats(0, 0, 0, 1, size, 0));
                assertThat(f.queue().deadForTenant("acme").dead()).isEqualTo(1);
                assertThat(f.ledger().firstDue(ord)).isEmpty();
                DeliveryRow row = DeliveryRow.decode(f.store().get(ColumnFamilies.DELIVERIES, new DeliveryKey(seq, 0).encode())
                        .orElseThrow());
                assertThat(row.attempts()).isEqualTo(10);
                assertThat(row.lastError()).contains("attempt 10 of 10").contains("HTTP 503");
                f.assertConsistent();

                f.clock().advance(60_000);
                assertThat(Replayer.of(f.queue()).replayTenant("acme").revived()).isEqualTo(1);
                assertThat(f.queue().stats()).isEqualTo(new QueueStats(1, 0, 0, 0, size, 0));
                assertThat(f.ledger().firstDue(ord).orElseThrow().kind()).isEqualTo(DueKind.FIRST_ATTEMPT);
                receiverUp.set(true);
                TickReport replayed = DispatchFixture.await(pipeline.tick());
                assertThat(replayed.delivered()).isEqualTo(1);
            }
            assertThat(sink.seen().get(10).attempt()).as("a replayed delivery starts again at attempt 1").isEqualTo(1);
            assertThat(sink.seen().get(10).hookId()).isEqualTo("msg_1");
            assertThat(f.queue().stats()).isEqualTo(new QueueStats(0, 0, 0, 0, 0, 0));
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aSinksRetryAfterHintIsAFloorForTheNextAttempt(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("h", "t", 0);
            ScriptedSink sink = new ScriptedSink(d -> SinkOutcome.retryAfter(Duration.ofMinutes(10), "HTTP 429"));
            try (Pipeline pipeline = f.pipeline(sink, b -> b.random(new SplittableRandom(1)))) {
                DispatchFixture.await(pipeline.tick());
            }
            assertThat(f.ledger().firstDue(f.ord("t")).orElseThrow().at())
                    .as("the schedule says 0 s after the first attempt; the hint says 10 min")
                    .isEqualTo(f.now() + Duration.ofMinutes(10).toMillis());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPermanentFailureIsDeadAtOnceWhateverAttemptsAreLeft(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("h", "t", 0);
            ScriptedSink sink = new ScriptedSink(d -> SinkOutcome.dead("HTTP 410 gone"));
            try (Pipeline pipeline = f.pipeline(sink, b -> b)) {
                assertThat(DispatchFixture.await(pipeline.tick()).dead()).isEqualTo(1);
            }
            assertThat(f.queue().deadForTenant("t").dead()).isEqualTo(1);
            assertThat(f.ledger().deadEntries(f.ord("t"), java.util.Optional.empty(), 10)).singleElement()
                    .satisfies(e -> assertThat(e.hookId()).isEqualTo("h"));
            f.assertConsistent();
        }
    }
}
