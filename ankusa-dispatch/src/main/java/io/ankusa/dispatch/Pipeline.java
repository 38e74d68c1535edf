package io.ankusa.dispatch;

import io.ankusa.api.QueueConfig;
import io.ankusa.api.events.QueueListener;
import io.ankusa.dispatch.engine.DispatchPipeline;
import io.ankusa.dispatch.report.DispatchHealth;
import io.ankusa.dispatch.report.DueTenants;
import io.ankusa.dispatch.report.OrderedKey;
import io.ankusa.dispatch.report.GaugeListener;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.TenantDispatch;
import io.ankusa.dispatch.report.TenantHealth;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.report.TroubledTenants;
import io.ankusa.dispatch.sink.OrderingPolicy;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.LedgerSource;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;

/**
 * Dispatches a queue's due deliveries to a {@link Sink}: claims them tick by tick from the tenants
 * that have work (a deficit round-robin across tenants, by weight, within their limits), sends them with bounded
 * concurrency and a deadline, settles each outcome (delivered; retried after the {@link RetryPolicy}'s delay;
 * dead-lettered after the last attempt or a permanent failure), and keeps the active index clean.
 *
 * <p>Delivery is at least once: a crash between a sink's answer and the settle commit, or a close
 * with attempts still running, leaves rows inflight, and opening the queue returns them to due.
 *
 * <p>{@link Builder#start()} returns a pipeline that ticks on a thread of its own (again at once
 * while a tick fills its row limit, otherwise after the tick interval; each of these ticks claims
 * at most half of the concurrency, so that its claim overlaps the previous tick's settle) and
 * reports {@link Gauges} to the listeners every gauge interval. {@link Builder#manual()} returns
 * one that ticks only when {@link #tick()} runs a tick on the calling thread, which is how tests
 * drive a pipeline with a hand-moved clock (the queue's: a pipeline reads "now" from its queue's
 * clock, which due times are stamped with); ticks never overlap. The pipeline does not
 * own the queue: close the pipeline first, then the queue.
 *
 * <pre>{@code
 * try (Pipeline pipeline = Pipeline.builder(queue, sinks).start()) {
 *     ...
 * }
 * }</pre>
 */
public interface Pipeline extends AutoCloseable {

    /**
     * A builder for a pipeline over {@code queue} delivering through {@code sink} (usually a
     * {@link io.ankusa.dispatch.sink.Sinks} router).
     *
     * @param queue the open queue whose due rows the pipeline delivers
     * @param sink  where every delivery goes; a {@link io.ankusa.dispatch.sink.Sinks} router picks one by sink
     *              number
     * @return a builder with the default limits and intervals
     */
    static Builder builder(Queue queue, Sink sink) {
        return new Builder(queue, sink);
    }

    /**
     * Starts ticking and gauge reporting on the pipeline's threads; returns this. Idempotent: a
     * pipeline from {@link Builder#start()} is running already; one from {@link Builder#manual()}
     * runs from now on.
     *
     * @return this pipeline, now running
     */
    Pipeline start();

    /**
     * Runs one tick now, on the calling thread: finds the tenants with due rows, claims up to the
     * row limit (never more than the free sink slots), cleans their markers and starts the sink
     * attempts. The stage completes once every row the tick claimed is settled (or fails if a
     * settle commit failed).
     *
     * @return a stage that completes with what the tick claimed and how the attempts settled
     * @throws IllegalStateException when the pipeline is closed
     * @throws io.ankusa.api.QueueFailedException when the queue failed (a long-lived thread of the
     *         queue or of this pipeline, its tick loop included, died of a {@link Throwable}; see
     *         {@code Queue.health()})
     */
    CompletionStage<TickReport> tick();

    /**
     * Measures the gauges now (on the calling thread).
     *
     * @return the gauges as of now
     */
    Gauges gauges();

    /**
     * What this pipeline's scheduler knows of {@code tenant} now: its weight, its deliveries in
     * flight (this pipeline's claims not yet settled), its in-flight limit, delivery rate and
     * tokens, and whether it is held back and why. Read under the tick's lock (it may wait for a
     * tick under way); no store read unless the tenant's name or policy was not looked up yet.
     *
     * @param tenant the tenant id
     * @return its state, or empty when the scheduler does not know the tenant (nothing due and
     *         nothing in flight since it last drained)
     */
    Optional<TenantDispatch> tenantDispatch(String tenant);

    /**
     * Up to {@code limit} of {@code tenant}'s ordering keys with deliveries waiting, by sink and by
     * key's group: each key's head (the one delivery of the key that may be attempted now) and how
     * many wait; a key with more than one waits on its head ({@link OrderedKey#blocked()}). Reads the
     * tenant's ordering keys from the store (at most 10 000 of them) and the heads' hooks; any thread.
     *
     * @param tenant the tenant id
     * @param limit  the most keys, at least 1
     * @return the keys, empty for an unknown tenant or one without ordered deliveries
     */
    List<OrderedKey> orderedKeys(String tenant, int limit);

    /**
     * A page of the tenants with due work now, as this pipeline's scheduler knows them: those in
     * its round-robin and those waiting at their in-flight limit or for a delivery token (a tenant
     * whose due rows the active-index feed has not reached yet, after a restart, shows up once it
     * has). In tenant-ordinal order, so pages do not overlap; the cost is the page plus the idle
     * tenants skipped, never a store scan.
     *
     * @param after the cursor: 0 for the first page, then the previous page's {@link DueTenants#next()}
     * @param limit the most tenants in the page, at least 1
     * @return the page
     */
    DueTenants dueTenants(long after, int limit);

    /**
     * Whether this pipeline keeps delivering what it should deliver now: its deliverable backlog's
     * age (rows of tenants it holds back by design left out), the rows it holds back by reason, since
     * when its tick loop last ticked and whether its sink still answers. {@link NodeHealth} judges it;
     * {@code docs/operations.md} ("Health") says what turns a node down and what does not. Costs no
     * scan (see {@link DispatchHealth}); any thread.
     *
     * @return the pipeline's health facts as of now
     * @throws IllegalStateException when the pipeline is closed
     */
    DispatchHealth dispatchHealth();

    /**
     * One tenant's health: whether the scheduler holds it back and why, its oldest due row's age as
     * the scheduler knows it, and its attempts and failures of the last one to two minutes.
     *
     * @param tenant the tenant id
     * @return its health, or empty when the queue never saw the tenant
     * @throws IllegalStateException when the pipeline is closed
     */
    Optional<TenantHealth> tenantHealth(String tenant);

    /**
     * The tenants in trouble: the {@code limit} with the oldest due rows and the {@code limit} with
     * the highest recent failure rate, for bounded-cardinality per-tenant metrics. Costs one pass
     * over the tenants attempted in the last two minutes and one name read per tenant reported.
     *
     * @param limit the most tenants in each list, at least 1
     * @return the tenants
     * @throws IllegalArgumentException when {@code limit} is below 1
     * @throws IllegalStateException when the pipeline is closed
     */
    TroubledTenants troubledTenants(int limit);

    /**
     * Events dropped so far because a listener registered on {@link Builder#listener} did not keep
     * up (its bounded hand-off was full); 0 without listeners.
     *
     * @return the count since the pipeline was built
     */
    long eventsDropped();

    /**
     * Adds a listener to this pipeline's events (those of {@link Builder#listener} are there from
     * the start): it hears the events published from now on, on a thread of its own with the same
     * bounded hand-off. For a binder that attaches itself to a running node in one call.
     *
     * @param listener the listener; it is never removed before the pipeline closes
     * @throws IllegalStateException when the pipeline is closed
     */
    void addListener(QueueListener listener);

    /**
     * Stops ticking, waits up to the sink deadline for the attempts under way to be settled, and
     * stops the pipeline's threads (a failed queue settles nothing more: then it does not wait). Rows
     * still unsettled stay inflight until the queue is next opened. Idempotent; does not close the queue.
     */
    @Override
    void close();

    /**
     * Configures a {@link Pipeline}. Defaults: the default {@link RetryPolicy},
     * 1 024 rows and 16 MiB per tick, 256 deliveries at once, a tick every 200 ms when idle, a
     * 60 s sink deadline, gauges every 15 s.
     */
    final class Builder {

        /** The default {@link #quantumBytes(long)}: 1 MiB. */
        public static final long DEFAULT_QUANTUM_BYTES = 1L << 20;

        private final Queue queue;
        private final Sink sink;
        private RetryPolicy retryPolicy = RetryPolicy.defaults();
        private OrderingPolicy orderingPolicy = OrderingPolicy.block();
        private RandomGenerator random;
        private int rowsPerTick = 1024;
        private long bytesPerTick = 16L << 20;
        private long quantumBytes = DEFAULT_QUANTUM_BYTES;
        private int concurrency = 256;
        private Duration tickInterval = Duration.ofMillis(200);
        private Duration sinkDeadline = Duration.ofSeconds(60);
        private Duration gaugeInterval = Duration.ofSeconds(15);
        private final List<GaugeListener> gaugeListeners = new ArrayList<>();
        private final List<QueueListener> listeners = new ArrayList<>();
        private int eventCapacity = QueueConfig.DEFAULT_EVENT_CAPACITY;
        /** Null until set: the queue's own, the one given to {@code Queue.open}. */
        private OpenTelemetry openTelemetry;
        private BooleanSupplier claimGate = () -> true;

        private Builder(Queue queue, Sink sink) {
            this.queue = Objects.requireNonNull(queue, "queue");
            this.sink = Objects.requireNonNull(sink, "sink");
        }

        /**
         * What follows a failed attempt.
         *
         * @param policy the schedule of retries and the attempt limit
         * @return this builder
         */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * What a stuck head of an ordering key does (default {@link OrderingPolicy#block()}: the key
         * waits as long as the head retries).
         *
         * @param policy block, or skip the head after some attempts or an age, per sink if need be
         * @return this builder
         */
        public Builder orderingPolicy(OrderingPolicy policy) {
            this.orderingPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * The source of retry jitter (a seeded one replays the same delays); defaults to a new
         * {@link SplittableRandom}.
         *
         * @param random where retry jitter comes from
         * @return this builder
         */
        public Builder random(RandomGenerator random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /**
         * Most rows one tick claims; at least 1. A started pipeline's ticks also claim no more than
         * half of {@link #concurrency(int)} (at least 1), so that one tick claims while the rows of
         * the tick before settle.
         *
         * @param rows the most rows a tick claims, at least 1
         * @return this builder
         */
        public Builder rowsPerTick(int rows) {
            this.rowsPerTick = requirePositive(rows, "rowsPerTick");
            return this;
        }

        /**
         * Most envelope bytes one tick claims (a tenant's first row is claimed even if larger); at least 1.
         *
         * @param bytes the most envelope bytes a tick claims, at least 1
         * @return this builder
         */
        public Builder bytesPerTick(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("bytesPerTick must be positive: " + bytes);
            }
            this.bytesPerTick = bytes;
            return this;
        }

        /**
         * The byte quantum of fair dispatch: the envelope bytes a weight-1 tenant may claim per
         * turn, beside its 16 rows (a turn ends at whichever runs out first; a tenant's first row of
         * a turn is claimed even if larger), so a tenant of large payloads gets proportionally
         * fewer rows a turn. Scaled by the tenant's weight like the row quantum; at least 1.
         * Default {@value #DEFAULT_QUANTUM_BYTES} (16 rows of 64 KiB).
         *
         * @param bytes the envelope bytes of a weight-1 turn, at least 1
         * @return this builder
         */
        public Builder quantumBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("quantumBytes must be positive: " + bytes);
            }
            this.quantumBytes = bytes;
            return this;
        }

        /**
         * Most deliveries claimed and not yet settled at once (sink calls in flight); at least 1.
         *
         * @param deliveries the most unsettled deliveries at once, at least 1
         * @return this builder
         */
        public Builder concurrency(int deliveries) {
            this.concurrency = requirePositive(deliveries, "concurrency");
            return this;
        }

        /**
         * How long a started pipeline waits after a tick that did not fill its row limit; positive.
         *
         * @param interval the pause after a tick that claimed less than its limit; positive
         * @return this builder
         */
        public Builder tickInterval(Duration interval) {
            this.tickInterval = requirePositive(interval, "tickInterval");
            return this;
        }

        /**
         * How long a sink may take to complete an attempt before it is settled as a retry; positive.
         *
         * @param deadline how long one attempt may take; positive
         * @return this builder
         */
        public Builder sinkDeadline(Duration deadline) {
            this.sinkDeadline = requirePositive(deadline, "sinkDeadline");
            return this;
        }

        /**
         * How often a started pipeline reports gauges to its listeners; positive.
         *
         * @param interval the time between two gauge reports; positive
         * @return this builder
         */
        public Builder gaugeInterval(Duration interval) {
            this.gaugeInterval = requirePositive(interval, "gaugeInterval");
            return this;
        }

        /**
         * Adds a listener for the gauges.
         *
         * @param listener told every gauge snapshot, on the pipeline's gauge thread
         * @return this builder
         */
        public Builder gaugeListener(GaugeListener listener) {
            gaugeListeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Adds a listener for the pipeline's events (attempts, retries, dead letters, settlements,
         * endpoint state, ticks), called through a bounded hand-off of its own, never on the tick
         * or settler thread; see {@link QueueListener}.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder listener(QueueListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Most events waiting for one listener before new ones are dropped and counted (default 8 192).
         *
         * @param capacity the capacity, at least 1
         * @return this builder
         */
        public Builder eventCapacity(int capacity) {
            this.eventCapacity = requirePositive(capacity, "eventCapacity");
            return this;
        }

        /**
         * What the delivery attempts are traced with (default: the queue's, the one given to
         * {@code Queue.open(config, openTelemetry)}, so ingest and attempts land in one trace; for a
         * queue opened without one, {@link OpenTelemetry#noop()}, which costs nothing): each attempt
         * is an {@code ankusa.deliver} span, child of the trace context stored with its hook, current
         * while the sink runs; retries and dead letters are span events (docs/operations.md, Traces).
         *
         * @param openTelemetry the tracer provider to trace with
         * @return this builder
         */
        public Builder openTelemetry(OpenTelemetry openTelemetry) {
            this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
            return this;
        }

        /**
         * Whether the pipeline may claim deliveries now (default: always). Each tick reads the gate
         * under the tick's lock before it reads due rows; a tick the gate refuses claims nothing and
         * starts no attempt (its report is empty), and the tick loop looks at the gate again after
         * the tick interval. Attempts under way are not touched: they finish and settle as usual.
         * Once the gate returns false, no tick that starts afterwards claims; a tick already past
         * the gate sends what it claimed. For an owner whose right to dispatch may lapse, such as a
         * Kafka node that may have lost its partitions. The gate is called often (at least once per
         * tick interval) and must be cheap and must not throw.
         *
         * @param gate true while ticks may claim
         * @return this builder
         */
        public Builder claimGate(BooleanSupplier gate) {
            this.claimGate = Objects.requireNonNull(gate, "gate");
            return this;
        }

        /**
         * The pipeline, started: ticking on its own thread and reporting gauges. This is how an
         * application gets a pipeline; there is no built-but-idle pipeline to forget to start.
         *
         * @return a running pipeline over the queue with these settings; close it before the queue
         */
        public Pipeline start() {
            return manual().start();
        }

        /**
         * The pipeline, driven by its caller: it ticks only when {@link Pipeline#tick()} is called
         * (how tests drive a pipeline with a hand-moved clock), until {@link Pipeline#start()}.
         *
         * @return a pipeline over the queue with these settings, not ticking by itself
         */
        public Pipeline manual() {
            return new EnginePipeline(new DispatchPipeline(new DispatchPipeline.Settings(queue, sink, retryPolicy,
                    random == null ? new SplittableRandom() : random, rowsPerTick, bytesPerTick, quantumBytes,
                    concurrency, tickInterval, sinkDeadline, gaugeInterval, gaugeListeners, listeners,
                    eventCapacity, orderingPolicy,
                    openTelemetry == null ? LedgerSource.of(queue).openTelemetry() : openTelemetry, claimGate)));
        }

        private static int requirePositive(int value, String what) {
            if (value < 1) {
                throw new IllegalArgumentException(what + " must be positive: " + value);
            }
            return value;
        }

        private static Duration requirePositive(Duration duration, String what) {
            Objects.requireNonNull(duration, what);
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(what + " must be positive: " + duration);
            }
            return duration;
        }
    }
}
