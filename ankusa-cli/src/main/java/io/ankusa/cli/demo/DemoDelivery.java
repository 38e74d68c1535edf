package io.ankusa.cli.demo;

import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.queue.Queue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs the dispatcher's {@link Pipeline} over a demo's queue until nothing is left to deliver (or
 * a time limit passes), measuring the gauges as it goes.
 *
 * <p>The pipeline runs as a service would run it ({@link Pipeline#start()}: its own tick loop and
 * settle threads); this class only watches the queue's counters, and times
 * {@link Pipeline#gauges()} twice a second.
 */
public final class DemoDelivery {

    /**
     * A retry policy that lets a demo end in seconds: 50, 100, 200 ms (±20%), four attempts in
     * all. The library's default starts at once and grows to hours.
     */
    public static final RetryPolicy DEMO_RETRIES = RetryPolicy.builder()
            .schedule(List.of(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200)))
            .maxAttempts(4)
            .jitter(0.2)
            .build();

    /** {@link #DEMO_RETRIES} for people. */
    public static final String DEMO_RETRIES_TEXT = "retries after 50, 100, 200 ms, 4 attempts";

    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration GAUGE_EVERY = Duration.ofMillis(500);

    private final Queue queue;
    private final Pipeline pipeline;
    private final List<Duration> gaugeTimes = Collections.synchronizedList(new ArrayList<>());

    /**
     * A pipeline over {@code queue} delivering to {@code sink} with {@code retries}; not started.
     * Ticks claim up to 4 096 rows (the default is 1 024) and come again after 10 ms when idle,
     * so that a demo's short retries are picked up promptly.
     */
    public DemoDelivery(Queue queue, Sink sink, RetryPolicy retries, long seed) {
        this.queue = queue;
        this.pipeline = Pipeline.builder(queue, sink)
                .retryPolicy(retries)
                .random(new SplittableRandom(seed))
                .tickInterval(Duration.ofMillis(10))
                .rowsPerTick(4096)
                .concurrency(4096)
                .manual();
    }

    /** Measures the gauges now, timing the read. */
    public Gauges gauges() {
        long start = System.nanoTime();
        Gauges gauges = pipeline.gauges();
        gaugeTimes.add(Duration.ofNanos(System.nanoTime() - start));
        return gauges;
    }

    /** Deliveries still to settle: pending, scheduled and inflight rows. */
    public long backlog() {
        QueueStats stats = queue.stats();
        return stats.pending() + stats.scheduled() + stats.inflight();
    }

    /**
     * Starts the pipeline and waits until the backlog is empty or {@code limit} has passed, then
     * closes the pipeline.
     *
     * @return how long delivery took
     */
    public Duration run(Duration limit) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        long nextGauge = start + GAUGE_EVERY.toNanos();
        pipeline.start();
        try {
            while (backlog() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(POLL.toMillis());
                if (System.nanoTime() >= nextGauge) {
                    gauges();
                    nextGauge += GAUGE_EVERY.toNanos();
                }
            }
        } finally {
            pipeline.close();
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** How long each gauge read took, in order. */
    public List<Duration> gaugeTimes() {
        synchronized (gaugeTimes) {
            return List.copyOf(gaugeTimes);
        }
    }
}
