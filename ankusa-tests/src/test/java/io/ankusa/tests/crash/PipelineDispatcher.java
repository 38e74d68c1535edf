package io.ankusa.tests.crash;

import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.QueueListener;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The crash test child's dispatcher: the real {@link Pipeline}, started (its own tick loop, claims
 * of half its {@value #CONCURRENCY} slots per tick overlapping the previous tick's settle), over a
 * sink that reports each attempt to {@code sent} and answers it after 0–15 ms with a random outcome
 * (delivered 60 %, retry in 0–50 ms 25 %, dead 15 %). While the answers are outstanding the claimed
 * rows are inflight, which is where a kill leaves them; each settled delivery is reported to
 * {@code settled} (through the pipeline's events).
 */
final class PipelineDispatcher {

    /** Deliveries claimed and unsettled at once: what a crash can send again. */
    static final int CONCURRENCY = 64;

    private final Pipeline pipeline;

    PipelineDispatcher(Queue queue, long seed, Consumer<Delivery> sent, IntConsumer settled) {
        SplittableRandom random = new SplittableRandom(seed);
        ScheduledExecutorService answers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sink-answers");
            t.setDaemon(true);
            return t;
        });
        this.pipeline = Pipeline.builder(queue, delivery -> {
            sent.accept(delivery);
            return answer(delivery, random, answers);
        }).concurrency(CONCURRENCY).tickInterval(Duration.ofMillis(5)).listener(new QueueListener() {
            @Override
            public void onSettled(DeliverySettled event) {
                settled.accept(1);
            }
        }).manual();
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

    /** Starts the pipeline; it runs until the process dies. */
    void start() {
        pipeline.start();
    }
}
