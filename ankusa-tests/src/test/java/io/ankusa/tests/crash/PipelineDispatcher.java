package io.ankusa.tests.crash;

import io.ankusa.dispatch.Delivery;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.SinkOutcome;
import io.ankusa.dispatch.TickReport;
import io.ankusa.queue.Queue;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The crash test child's dispatcher: the real {@link Pipeline}, ticked in a loop on one thread,
 * over a sink that answers each attempt after 0–15 ms with a random outcome (delivered 60 %, retry
 * in 0–50 ms 25 %, dead 15 %). While the answers are outstanding the claimed rows are inflight,
 * which is where a kill leaves them; each tick's stage completes once its rows are settled, and
 * the number settled is reported to {@code settled}.
 */
final class PipelineDispatcher {

    private final Pipeline pipeline;
    private final IntConsumer settled;

    PipelineDispatcher(Queue queue, long seed, IntConsumer settled) {
        SplittableRandom random = new SplittableRandom(seed);
        ScheduledExecutorService answers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sink-answers");
            t.setDaemon(true);
            return t;
        });
        this.pipeline = Pipeline.builder(queue, delivery -> answer(delivery, random, answers))
                .rowsPerTick(48).concurrency(48).build();
        this.settled = settled;
    }

    private static CompletionStage<SinkOutcome> answer(Delivery delivery, SplittableRandom shared,
            ScheduledExecutorService answers) {
        int pick;
        int delayMicros;
        int retryMillis;
        synchronized (shared) {
            pick = shared.nextInt(100);
            delayMicros = shared.nextInt(15_000);
            retryMillis = shared.nextInt(50);
        }
        SinkOutcome outcome = pick < 60 ? SinkOutcome.delivered()
                : pick < 85 ? SinkOutcome.retryAfter(Duration.ofMillis(retryMillis), "HTTP 503")
                : SinkOutcome.dead("HTTP 410");
        CompletableFuture<SinkOutcome> answer = new CompletableFuture<>();
        answers.schedule(() -> answer.complete(outcome), delayMicros, TimeUnit.MICROSECONDS);
        return answer;
    }

    /** Ticks until the process dies. */
    void runForever() {
        while (!Thread.currentThread().isInterrupted()) {
            TickReport report = pipeline.tick().toCompletableFuture().join();
            int done = report.delivered() + report.retried() + report.dead() + report.dropped();
            if (done > 0) {
                settled.accept(done);
            }
        }
    }
}
