package io.ankusa.admin.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.json.Nodes;
import io.ankusa.api.QueueStats;
import io.ankusa.api.events.DeadLettered;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.QueueListener;
import io.ankusa.api.events.RetryScheduled;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.queue.Queue;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last hour of the node's counters for the overview's charts: one read of the queue's counters
 * and of its oldest due age every {@link #INTERVAL}, kept in a ring of {@link #CAPACITY} samples,
 * so an open dashboard costs the node these reads whatever the number of viewers. With a pipeline,
 * settled deliveries, retries and dead letters are counted from its events (no read) and shown per
 * second over each interval. Its one daemon thread runs from {@link #start()} to {@link #close()}.
 */
public final class StatsSampler implements AutoCloseable {

    /** The time between two samples. */
    public static final Duration INTERVAL = Duration.ofSeconds(10);

    /** The samples kept: one hour. */
    static final int CAPACITY = 360;

    private static final Logger LOG = LoggerFactory.getLogger(StatsSampler.class);

    private record Sample(long at, QueueStats stats, long oldestDueSeconds, Double delivered, Double retried,
            Double failed) {
    }

    private final Queue queue;
    private final boolean counting;
    private final Clock clock;
    private final LongAdder delivered = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final ArrayDeque<Sample> ring = new ArrayDeque<>(CAPACITY);
    private ScheduledExecutorService timer;
    private long lastAt;

    /**
     * A sampler of {@code queue}, counting {@code pipeline}'s events when there is one.
     *
     * @param queue    the node's queue
     * @param pipeline its pipeline, if any
     */
    public StatsSampler(Queue queue, Optional<Pipeline> pipeline) {
        this(queue, pipeline, Clock.systemUTC());
    }

    StatsSampler(Queue queue, Optional<Pipeline> pipeline, Clock clock) {
        this.queue = queue;
        this.clock = clock;
        this.counting = pipeline.isPresent();
        pipeline.ifPresent(p -> p.addListener(new Counter()));
    }

    /** Takes a first sample now, then one every {@link #INTERVAL}; a second call does nothing. */
    public synchronized void start() {
        if (timer != null) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ankusa-admin-sampler");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::sampleQuietly, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (RuntimeException e) {
            LOG.debug("the dashboard's sample failed", e);
        }
    }

    /** Takes one sample: one read of the counters, one of the oldest due age. */
    synchronized void sample() {
        long now = clock.millis();
        QueueStats stats = queue.stats();
        long oldest = queue.oldestDueAge().map(Duration::toSeconds).orElse(0L);
        double seconds = lastAt == 0 ? 0 : Math.max(1, now - lastAt) / 1000.0;
        long d = delivered.sumThenReset();
        long r = retried.sumThenReset();
        long f = failed.sumThenReset();
        Sample sample = counting && seconds > 0
                ? new Sample(now / 1000, stats, oldest, d / seconds, r / seconds, f / seconds)
                : new Sample(now / 1000, stats, oldest, null, null, null);
        lastAt = now;
        if (ring.size() == CAPACITY) {
            ring.removeFirst();
        }
        ring.addLast(sample);
    }

    /**
     * The ring as columns of equal length, oldest sample first (the shape uPlot draws).
     *
     * @return the history
     */
    public synchronized JsonNode history() {
        ObjectNode body = Nodes.object();
        body.put("intervalSeconds", INTERVAL.toSeconds());
        ArrayNode t = body.putArray("t");
        ArrayNode pending = body.putArray("pending");
        ArrayNode scheduled = body.putArray("scheduled");
        ArrayNode inflight = body.putArray("inflight");
        ArrayNode dead = body.putArray("dead");
        ArrayNode quarantined = body.putArray("quarantined");
        ArrayNode oldest = body.putArray("oldestDueSeconds");
        ArrayNode deliveredRate = body.putArray("deliveredPerSecond");
        ArrayNode retriedRate = body.putArray("retriedPerSecond");
        ArrayNode failedRate = body.putArray("failedPerSecond");
        for (Sample s : ring) {
            t.add(s.at());
            pending.add(s.stats().pending());
            scheduled.add(s.stats().scheduled());
            inflight.add(s.stats().inflight());
            dead.add(s.stats().dead());
            quarantined.add(s.stats().quarantined());
            oldest.add(s.oldestDueSeconds());
            deliveredRate.add(s.delivered());
            retriedRate.add(s.retried());
            failedRate.add(s.failed());
        }
        return body;
    }

    /** Stops the sampling thread. */
    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    /** Counts the pipeline's outcomes on its event thread. */
    private final class Counter implements QueueListener {

        @Override
        public void onSettled(DeliverySettled event) {
            if (event.result() == DeliverySettled.Result.DELIVERED) {
                delivered.increment();
            }
        }

        @Override
        public void onRetryScheduled(RetryScheduled event) {
            retried.increment();
        }

        @Override
        public void onDeadLettered(DeadLettered event) {
            failed.increment();
        }
    }
}
