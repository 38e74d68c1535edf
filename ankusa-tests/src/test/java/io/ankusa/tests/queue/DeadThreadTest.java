package io.ankusa.tests.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.ankusa.api.QueueFailedException;
import io.ankusa.api.QueueHealth;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.tests.support.DyingStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A queue thread that dies of an {@code Error} fails its callers, never hangs them. */
class DeadThreadTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static QueueUnderTest dying(String backend, Path dir, AtomicReference<DyingStore> store) {
        return QueueUnderTest.open(backend, dir, b -> b, s -> {
            store.set(new DyingStore(s));
            return store.get();
        });
    }

    private static Throwable failureOf(CompletableFuture<?> future) throws InterruptedException {
        try {
            future.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            throw new AssertionError("completed normally");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("still pending after " + BOUND, e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void deadWriterFailsEveryPendingIngest(String backend) throws Exception {
        AtomicReference<DyingStore> store = new AtomicReference<>();
        try (QueueUnderTest q = dying(backend, dir, store)) {
            Receipt kept = q.ingest(QueueUnderTest.hook("before", "a", 0));
            store.get().arm(true);
            List<CompletableFuture<Receipt>> pending = new ArrayList<>();
            pending.add(q.queue().ingest(QueueUnderTest.hook("first", "a", 0)));
            store.get().awaitEntered();
            for (int i = 0; i < 20; i++) {
                pending.add(q.queue().ingest(QueueUnderTest.hook("queued-" + i, "b", 0)));
            }
            store.get().release();

            for (CompletableFuture<Receipt> f : pending) {
                assertThat(failureOf(f)).isInstanceOf(QueueFailedException.class)
                        .hasMessageContaining("ingest writer").hasRootCauseMessage("injected by the test: the thread dies");
            }
            QueueHealth health = q.queue().health();
            assertThat(health.state()).isEqualTo(QueueHealth.State.FAILED);
            assertThat(health.component()).contains("ingest writer");

            CompletableFuture<Receipt> later = q.queue().ingest(QueueUnderTest.hook("later", "a", 0));
            assertThat(later).as("a later ingest fails at once").isCompletedExceptionally();
            assertThat(failureOf(later)).isInstanceOf(QueueFailedException.class);
            assertThat(((QueueFailedException) failureOf(later)).error()).isEqualTo("queue_failed");

            assertTimeoutPreemptively(BOUND, () -> q.queue().close());
            assertThat(q.queue().health()).isEqualTo(QueueHealth.CLOSED);

            q.reopen();
            assertThat(q.queue().health()).isEqualTo(QueueHealth.RUNNING);
            assertThat(q.queue().stats().pending()).as("the acknowledged hook is kept").isEqualTo(1);
            assertThat(kept.seq()).isPositive();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDeadSettlerFailsEveryPendingSettleAndTheQueueReportsIt(String backend) throws Exception {
        AtomicReference<DyingStore> store = new AtomicReference<>();
        try (QueueUnderTest q = dying(backend, dir, store)) {
            for (int i = 0; i < 3; i++) {
                q.ingest(QueueUnderTest.hook("h" + i, "a", 0));
            }
            List<CompletableFuture<SinkOutcome>> outcomes = new ArrayList<>();
            Pipeline pipeline = Pipeline.builder(q.queue(), d -> {
                CompletableFuture<SinkOutcome> outcome = new CompletableFuture<>();
                synchronized (outcomes) {
                    outcomes.add(outcome);
                }
                return outcome;
            }).manual();
            try {
                CompletionStage<TickReport> tick = pipeline.tick();
                synchronized (outcomes) {
                    assertThat(outcomes).hasSize(3);
                }
                store.get().arm(false);
                synchronized (outcomes) {
                    outcomes.forEach(o -> o.complete(SinkOutcome.delivered()));
                }
                assertThat(failureOf(tick.toCompletableFuture())).isInstanceOf(QueueFailedException.class)
                        .hasMessageContaining("settler");
                assertThat(q.queue().health().state()).isEqualTo(QueueHealth.State.FAILED);
                assertThat(q.queue().health().component()).contains("settler");
                assertThat(q.queue().ingest(QueueUnderTest.hook("later", "a", 0))).isCompletedExceptionally();
            } finally {
                assertTimeoutPreemptively(BOUND, pipeline::close);
            }
            q.reopen();
            TenantStats a = q.queue().pendingForTenant("a");
            assertThat(a.pending()).as("the unsettled rows come back as due").isEqualTo(3);
        }
        assertThatThrownBy(() -> {
            throw new QueueFailedException("x", new Error("y"));
        }).hasMessageContaining("x died of java.lang.Error: y");
    }

    /** A clock that, once armed, throws an {@code Error} on the tick loop's next read and remembers that thread. */
    private static final class DyingClock implements java.time.InstantSource {
        private final java.time.InstantSource delegate;
        private final CompletableFuture<Thread> died = new CompletableFuture<>();
        private volatile boolean armed;

        DyingClock(java.time.InstantSource delegate) {
            this.delegate = delegate;
        }

        @Override
        public java.time.Instant instant() {
            if (armed && Thread.currentThread().getName().equals("ankusa-dispatch-tick") && !died.isDone()) {
                died.complete(Thread.currentThread());
                throw new OutOfMemoryError("injected into the tick loop");
            }
            return delegate.instant();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDeadTickLoopMakesTheQueueReportFailedAndFailsLaterTicks(String backend) throws Exception {
        // The pipeline reads "now" from the queue's clock, which reads this wall clock on the calling
        // thread: armed, it throws an Error on the tick loop's thread only.
        DyingClock clock = new DyingClock(java.time.InstantSource.fixed(java.time.Instant.parse("2026-01-01T00:00:00Z")));
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.clock(clock))) {
            Pipeline pipeline = Pipeline.builder(q.queue(), d -> CompletableFuture.completedFuture(SinkOutcome.delivered()))
                    .tickInterval(Duration.ofMillis(1)).manual();
            try {
                clock.armed = true;
                pipeline.start();
                Thread loop = clock.died.get(BOUND.toSeconds(), TimeUnit.SECONDS);
                loop.join(BOUND.toMillis());
                assertThat(loop.isAlive()).as("the tick loop ended").isFalse();
                assertThat(q.queue().health().state()).isEqualTo(QueueHealth.State.FAILED);
                assertThat(q.queue().health().component()).contains("dispatch tick loop");
                assertThatThrownBy(pipeline::tick).isInstanceOf(QueueFailedException.class)
                        .hasMessageContaining("dispatch tick loop");
                assertThat(q.queue().ingest(QueueUnderTest.hook("later", "a", 0))).isCompletedExceptionally();
            } finally {
                assertTimeoutPreemptively(BOUND, pipeline::close);
            }
        }
    }
}
