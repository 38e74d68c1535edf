package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.AuditEntry;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.ReplayPage;
import io.ankusa.dispatch.ReplayResult;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.store.Store;
import io.ankusa.testkit.ScriptedSink;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.SteppingClock;
import io.ankusa.tests.queue.TestQueue;
import io.ankusa.tests.support.ScanHookStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Wall-clock steps, as NTP or an operator makes them, against the queue clock. The
 * queue's wall clock and its monotonic source are both injected ({@link SteppingClock}), so a step
 * (the wall moves, no time passes) is told apart from time passing, on both backends.
 */
class ClockStepTest {

    private static final long HOUR = Duration.ofHours(1).toMillis();
    private static final long DAY = Duration.ofDays(1).toMillis();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aBackwardClockStepDoesNotHoldBackDueRows(String backend) {
        SteppingClock clock = new SteppingClock(QueueUnderTest.EPOCH);
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        ScriptedSink sink = new ScriptedSink(d -> d.hookId().startsWith("flaky") && failedOnce.add(d.hookId())
                ? SinkOutcome.retry("HTTP 503") : SinkOutcome.delivered());
        try (TestQueue queue = open(backend, clock);
                Pipeline pipeline = Pipeline.builder(queue, sink).retryPolicy(RetryPolicy.builder()
                        .schedule(List.of(Duration.ofSeconds(30))).jitter(0).build()).manual()) {
            QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("flaky", "t0", 0)));
            assertThat(DispatchFixture.await(pipeline.tick()).retried()).as("first attempt fails: retry in 30 s").isEqualTo(1);
            QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("due", "t1", 0)));
            clock.pass(2_000);
            // A started pipeline reads the clock at every tick (200 ms apart); this reading stands for them.
            assertThat(queue.oldestDueAge()).contains(Duration.ofSeconds(2));

            clock.step(-HOUR);
            assertThat(DispatchFixture.await(pipeline.tick()).delivered())
                    .as("the row due before the step goes out at once").isEqualTo(1);
            assertThat(sink.hookIds()).containsExactly("flaky", "due");

            // The retry was due 30 s after the failure: 28 s are left, which the queue clock, ahead of the
            // wall, lets pass at half speed (56 s), not after the hour the wall needs to catch up.
            clock.pass(55_000);
            assertThat(DispatchFixture.await(pipeline.tick()).claimed()).as("not yet").isZero();
            clock.pass(2_000);
            assertThat(DispatchFixture.await(pipeline.tick()).delivered()).as("the retry, 57 s after the step")
                    .isEqualTo(1);
            assertThat(sink.attempts("flaky")).isEqualTo(2);
            assertThat(queue.stats().pending()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void replayAfterABackwardClockStepRevivesEveryLetter(String backend) {
        SteppingClock clock = new SteppingClock(QueueUnderTest.EPOCH);
        ScriptedSink sink = new ScriptedSink(d -> SinkOutcome.dead("HTTP 410"));
        try (TestQueue queue = open(backend, clock);
                Pipeline pipeline = Pipeline.builder(queue, sink).manual()) {
            for (int i = 0; i < 21; i++) {
                QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("h" + i, i == 20 ? "solo" : "many", 0, 1)));
                clock.pass(1_000);
                assertThat(DispatchFixture.await(pipeline.tick()).dead()).isEqualTo(2);
            }
            assertThat(queue.deadForTenant("many").dead()).isEqualTo(40);
            assertThat(queue.deadForTenant("solo").dead()).isEqualTo(2);

            clock.step(-HOUR);
            Replayer replayer = Replayer.of(queue);
            assertThat(replayer.replayHook("solo", "h20")).isEqualTo(new ReplayResult(2, 0, 0));
            assertThat(replayer.replayTenant("many")).isEqualTo(new ReplayResult(40, 0, 0));
            assertThat(queue.deadForTenant("many").dead()).isZero();
            assertThat(queue.deadForTenant("solo").dead()).isZero();
            assertThat(queue.stats().pending()).isEqualTo(42);
            assertThat(queue.auditTrail(10)).extracting(AuditEntry::counts)
                    .containsExactly(Map.of("revived", 40L), Map.of("revived", 2L));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aReplayCountsAndAuditsTheLettersItSkipsAndWhy(String backend) {
        SteppingClock clock = new SteppingClock(QueueUnderTest.EPOCH);
        AtomicReference<ScanHookStore> hooks = new AtomicReference<>();
        try (TestQueue queue = open(backend, clock, store -> {
            hooks.set(new ScanHookStore(store));
            return hooks.get();
        })) {
            DeliveryLedger ledger = LedgerSource.of(queue).deliveryLedger();
            for (String hook : List.of("old", "new")) {
                QueueUnderTest.await(queue.ingest(QueueUnderTest.hook(hook, "t0", 0)));
            }
            long ord = queue.ord("t0").orElseThrow();
            ledger.claim(ord, ledger.dueForTenant(ord, clock.millis(), 0, 10, Long.MAX_VALUE)).claimed()
                    .forEach(d -> {
                        if (d.hookId().equals("old")) {
                            ledger.dead(d, "HTTP 410");
                        } else {
                            ledger.retry(d, clock.millis(), "HTTP 503");
                        }
                    });
            Replayer replayer = Replayer.of(queue);

            // "new" dies a second after the replay began, before it reads the dead index: newer, skipped.
            hooks.get().beforeNextIndexScan(() -> {
                clock.pass(1_000);
                ledger.claim(ord, ledger.dueForTenant(ord, clock.millis(), 0, 10, Long.MAX_VALUE)).claimed()
                        .forEach(d -> ledger.dead(d, "HTTP 410"));
            });
            assertThat(replayer.replayTenant("t0")).isEqualTo(new ReplayResult(1, 1, 0));
            assertThat(queue.auditTrail(1)).extracting(AuditEntry::counts)
                    .containsExactly(Map.of("revived", 1L, "skipped_newer", 1L));
            assertThat(queue.deadForTenant("t0").dead()).as("the skipped letter is still dead").isEqualTo(1);

            // Someone else revives "new" between the page's read and its commit: gone, skipped.
            hooks.get().afterNextIndexScan(() -> ledger.revive(ord, ledger.deadRows(ord, 10)));
            ReplayPage page = replayer.replayPage(10);
            assertThat(page.revived()).isZero();
            assertThat(page.skipped()).isEqualTo(1);
            assertThat(queue.auditTrail(1)).extracting(AuditEntry::counts)
                    .containsExactly(Map.of("revived", 0L, "skipped_gone", 1L));
            assertThat(queue.deadForTenant("t0").dead()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void a1DayForwardStepDoesNotReadAsA1DayBacklogAge(String backend) {
        SteppingClock clock = new SteppingClock(QueueUnderTest.EPOCH);
        try (TestQueue queue = open(backend, clock);
                Pipeline pipeline = Pipeline.builder(queue, ScriptedSink.delivering()).manual()) {
            QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("waiting", "t0", 0)));
            clock.pass(5_000);
            assertThat(queue.oldestDueAge()).contains(Duration.ofSeconds(5));

            clock.step(DAY);
            assertThat(queue.oldestDueAge()).as("5 s waited, not a day").contains(Duration.ofSeconds(5));
            assertThat(pipeline.gauges().oldestDueAge()).contains(Duration.ofSeconds(5));
            clock.pass(3_000);
            assertThat(queue.oldestDueAge()).contains(Duration.ofSeconds(8));
            assertThat(pipeline.gauges().oldestDueAge()).contains(Duration.ofSeconds(8));
            assertThat(pipeline.gauges().measuredAt().toEpochMilli()).as("due times follow the wall")
                    .isEqualTo(QueueUnderTest.EPOCH + DAY + 8_000);

            // A row the step jumped over (due in an hour, the wall now a day on) has waited since the step.
            assertThat(DispatchFixture.await(pipeline.tick()).delivered()).isEqualTo(1);
            QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("later", "t1", 0)));
            long ord = queue.ord("t1").orElseThrow();
            DeliveryLedger ledger = LedgerSource.of(queue).deliveryLedger();
            ledger.claim(ord, ledger.dueForTenant(ord, clock.millis(), 0, 10, Long.MAX_VALUE)).claimed()
                    .forEach(d -> ledger.retry(d, clock.millis() + HOUR, "HTTP 503"));
            assertThat(queue.oldestDueAge()).as("due in an hour: not due").contains(Duration.ZERO);
            clock.pass(2_000);
            clock.step(DAY);
            // The queue learns of a step at its next reading: a started pipeline reads the clock every tick.
            assertThat(queue.oldestDueAge()).contains(Duration.ZERO);
            clock.pass(4_000);
            assertThat(queue.oldestDueAge()).as("due since the step, 4 s ago").contains(Duration.ofSeconds(4));
            assertThat(pipeline.gauges().oldestDueAge()).contains(Duration.ofSeconds(4));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRestartAfterABackwardStepStartsTheQueueClockWhereItStopped(String backend) {
        SteppingClock clock = new SteppingClock(QueueUnderTest.EPOCH);
        ScriptedSink sink = ScriptedSink.delivering();
        long stoppedAt;
        try (TestQueue queue = open(backend, clock)) {
            QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("before", "t0", 0)));
            clock.pass(10_000);
            stoppedAt = LedgerSource.of(queue).deliveryLedger().clock().millis();
        }
        clock.step(-HOUR);
        clock.pass(1_000);
        try (TestQueue queue = open(backend, clock);
                Pipeline pipeline = Pipeline.builder(queue, sink).manual()) {
            long now = LedgerSource.of(queue).deliveryLedger().clock().millis();
            assertThat(now).as("not an hour back").isGreaterThanOrEqualTo(stoppedAt);
            assertThat(queue.oldestDueAge()).as("due 10 s before the restart").hasValueSatisfying(
                    age -> assertThat(age).isGreaterThanOrEqualTo(Duration.ofSeconds(10)));
            assertThat(DispatchFixture.await(pipeline.tick()).delivered()).as("due before the restart: out at once")
                    .isEqualTo(1);
            QueueUnderTest.await(queue.ingest(QueueUnderTest.hook("after", "t0", 0)));
            assertThat(DispatchFixture.await(pipeline.tick()).delivered()).isEqualTo(1);
            assertThat(sink.hookIds()).containsExactly("before", "after");
            assertThat(queue.auditTrail(1)).isEmpty();
        }
    }

    private TestQueue open(String backend, SteppingClock clock) {
        return open(backend, clock, UnaryOperator.identity());
    }

    private TestQueue open(String backend, SteppingClock clock, UnaryOperator<Store> wrap) {
        return TestQueue.open(QueueConfig.builder(dir).backend(backend).clock(clock)
                .housekeepingInterval(Duration.ZERO).build(), wrap, clock::nanos);
    }
}
