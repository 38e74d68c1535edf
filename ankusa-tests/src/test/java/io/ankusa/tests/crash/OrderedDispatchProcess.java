package io.ankusa.tests.crash;

import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The program the ordering kill -9 test kills: a child JVM that opens the store the parent filled
 * with ordered hooks and runs a started pipeline over a sink that answers after 0–5 ms, delivered
 * (60 %) or retry (40 %, again after 10 ms). It prints {@code attempt <hook id>} when the sink is
 * handed a delivery and {@code ok <hook id>} just before it answers delivered (so before the
 * settle that lets the next of the key go), and {@code drained} once nothing is due or in flight.
 * The parent kills it at a random moment.
 *
 * <p>Arguments: {@code <backend> <directory> <seed>}.
 */
public final class OrderedDispatchProcess {

    private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

    private OrderedDispatchProcess() {
    }

    /** Runs the pipeline until killed, or until stdin closes after {@code drained}. */
    public static void main(String[] args) throws Exception {
        String backend = args[0];
        Path directory = Path.of(args[1]);
        SplittableRandom random = new SplittableRandom(Long.parseLong(args[2]));
        ScheduledExecutorService answers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sink-answers");
            t.setDaemon(true);
            return t;
        });
        Queue queue = Queue.open(QueueConfig.builder(directory).backend(backend).build());
        Pipeline pipeline = Pipeline.builder(queue, d -> {
            OUT.println("attempt " + d.hookId());
            int pick;
            int delayMicros;
            synchronized (random) {
                pick = random.nextInt(100);
                delayMicros = random.nextInt(5_000);
            }
            CompletableFuture<SinkOutcome> outcome = new CompletableFuture<>();
            answers.schedule(() -> {
                if (pick < 60) {
                    OUT.println("ok " + d.hookId());
                    outcome.complete(SinkOutcome.delivered());
                } else {
                    outcome.complete(SinkOutcome.retry("HTTP 500"));
                }
            }, delayMicros, TimeUnit.MICROSECONDS);
            return (CompletionStage<SinkOutcome>) outcome;
        }).retryPolicy(RetryPolicy.builder().schedule(List.of(Duration.ofMillis(10))).maxAttempts(100_000).jitter(0)
                .build()).concurrency(32).tickInterval(Duration.ofMillis(5)).start();
        OUT.println("started");
        while (true) {
            QueueStats stats = queue.stats();
            if (stats.pending() + stats.scheduled() + stats.inflight() == 0) {
                OUT.println("drained");
                break;
            }
            // Polls the counters for the end of the run only; no step of the test waits on it.
            Thread.sleep(20);
        }
        pipeline.close();
        queue.close();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            while (in.readLine() != null) {
                // wait for the parent to close stdin
            }
        } catch (IOException e) {
            // the parent is gone
        }
        Runtime.getRuntime().halt(0);
    }
}
