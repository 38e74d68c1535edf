package io.ankusa.dispatch.engine;

import io.ankusa.api.EndpointSettings;
import io.ankusa.api.Hook;
import io.ankusa.api.events.QueueListener;
import io.ankusa.dispatch.report.DispatchHealth;
import io.ankusa.dispatch.report.DueTenants;
import io.ankusa.dispatch.report.GaugeListener;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.OrderedKey;
import io.ankusa.dispatch.report.TenantDispatch;
import io.ankusa.dispatch.report.TenantHealth;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.report.TroubledTenants;
import io.ankusa.dispatch.sink.OrderingPolicy;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.queue.Queue;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.ledger.AuditRecorder;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.OrderGroup;
import io.ankusa.queue.ledger.QueueClock;
import io.opentelemetry.api.OpenTelemetry;
import io.ankusa.queue.ledger.QueueFault;
import io.ankusa.queue.ledger.TenantDirectory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine behind {@code io.ankusa.dispatch.Pipeline} (which delegates to it, one method each): wires the tick, the
 * sink attempts, the settler and the gauge reader, and runs the tick loop and the gauge schedule once started.
 *
 * <p>Threads: the tick loop ({@code ankusa-dispatch-tick}, or the caller of {@link #tick()}), the
 * settler ({@code ankusa-dispatch-settler}) and its sync ({@code ankusa-dispatch-settle-sync}),
 * the gauge schedule ({@code ankusa-dispatch-gauges}), and whatever threads the sink completes its
 * stages on. Inflight rows belong to the pipeline from claim to settle; marker deletes are made by
 * the tick only.
 */
public final class DispatchPipeline implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DispatchPipeline.class);
    /** Shortest pause of the tick loop before a tick that waits for a delivery token. */
    private static final long MIN_PAUSE_NANOS = 1_000_000L;

    /**
     * The builder's values.
     *
     * @param queue          the queue
     * @param sink           the sink
     * @param retryPolicy    the retry policy
     * @param random         jitter source
     * @param rowsPerTick    row limit of a tick
     * @param bytesPerTick   byte budget of a tick
     * @param quantumBytes   envelope bytes of a weight-1 tenant's turn
     * @param concurrency    deliveries claimed and unsettled at once
     * @param tickInterval   pause after a tick that did not fill its row limit
     * @param sinkDeadline   how long a sink attempt may take
     * @param gaugeInterval  how often gauges are reported
     * @param gaugeListeners who gets them
     * @param listeners      who gets the pipeline's events
     * @param eventCapacity  most events waiting per listener
     * @param orderingPolicy what a stuck head of an ordering key does
     * @param openTelemetry  what the attempts are traced with
     * @param claimGate      whether a tick may claim now (read under the tick's lock before each tick)
     */
    public record Settings(Queue queue, Sink sink, RetryPolicy retryPolicy,
            RandomGenerator random, int rowsPerTick, long bytesPerTick, long quantumBytes, int concurrency,
            Duration tickInterval,
            Duration sinkDeadline, Duration gaugeInterval, List<GaugeListener> gaugeListeners,
            List<QueueListener> listeners, int eventCapacity, OrderingPolicy orderingPolicy,
            OpenTelemetry openTelemetry, BooleanSupplier claimGate) {

        /** Copies the listeners. */
        public Settings {
            Objects.requireNonNull(openTelemetry, "openTelemetry");
            Objects.requireNonNull(claimGate, "claimGate");
            gaugeListeners = List.copyOf(gaugeListeners);
            listeners = List.copyOf(listeners);
            Objects.requireNonNull(orderingPolicy, "orderingPolicy");
        }
    }

    private final Settings settings;
    private final Settler settler;
    private final Attempts attempts;
    private final TenantScheduler scheduler;
    private final KeyOrder order;
    private final Tick tick;
    private final LongSupplier nanoTime;
    private final TenantDirectory directory;
    private final DeliveryLedger ledger;
    private final GaugeReader gauges;
    private final HealthReader health;
    private volatile long loopStartedNanos = Tick.NEVER;
    private final EventHub events;
    private final QueueFault fault;
    private final Object lifecycle = new Object();
    private volatile boolean closed;
    /** Free slots the tick loop waits for; {@link Integer#MAX_VALUE} while it does not wait. */
    private volatile int slotsWanted = Integer.MAX_VALUE;
    /** The last tick left rows due because their endpoint was at its concurrency limit. */
    private volatile boolean slotLimited;
    private volatile Thread loop;
    private ScheduledExecutorService gaugeSchedule;

    /** A pipeline with {@code settings}; not started. */
    public DispatchPipeline(Settings settings) {
        this.settings = settings;
        LedgerSource source = LedgerSource.of(settings.queue());
        DeliveryLedger ledger = source.deliveryLedger();
        this.ledger = ledger;
        QueueClock clock = ledger.clock();
        this.events = EventHub.start(settings.listeners(), settings.eventCapacity(), "ankusa-dispatch-events");
        this.fault = source.queueFault();
        EndpointSettings endpointSettings = source.endpointSettings();
        this.settler = new Settler(ledger, settings.retryPolicy(), settings.orderingPolicy(), settings.random(), clock,
                fault, events,
                new EndpointTransitions(source.endpointLedger(), endpointSettings, source.auditRecorder()));
        // Delivery-rate buckets and endpoint pauses run on the queue clock's monotonic source (a test's clock
        // drives it too).
        this.nanoTime = clock::monotonicNanos;
        EndpointGate gate = new EndpointAdmission(source.endpointLedger(), endpointSettings,
                EndpointAdmission.declaredBy(settings.sink()), source.endpointLimits());
        this.attempts = new Attempts(settings.sink(), settings.concurrency(), settings.sinkDeadline(), clock, settler,
                this::slotFreed, events, gate, nanoTime, new AttemptTracing(settings.openTelemetry()));
        this.directory = source.tenantDirectory();
        PendingLeaders leaders = new PendingLeaders(ledger, directory);
        OldestDue oldest = new OldestDue();
        this.order = new KeyOrder(ledger::orderHead);
        this.scheduler = new TenantScheduler(directory, source.tenantPolicies(), gate, order, leaders, oldest,
                settings.quantumBytes());
        this.tick = new Tick(ledger, clock, nanoTime, new MarkerCleanup(ledger), scheduler, attempts, settler,
                new QuarantineAlarm(directory, events), settings.rowsPerTick(), settings.bytesPerTick(), events, gate,
                order, settings.claimGate());
        this.gauges = new GaugeReader(settings.queue(), ledger, clock, tick::lastVisited, leaders, oldest);
        this.health = new HealthReader(ledger, directory, nanoTime, oldest, this::lastTickNanos, attempts.pulse(),
                attempts.failures(), this::ticking);
    }

    /** When the last tick ended, or the loop started when none has yet ({@link Tick#NEVER} for neither). */
    private long lastTickNanos() {
        long ended = tick.lastEndedNanos();
        return ended == Tick.NEVER ? loopStartedNanos : ended;
    }

    /**
     * Whether the tick loop runs: started, not closed, not ended by a failure, and its claim gate
     * open (a loop held by the gate ticks no more, on purpose).
     */
    private boolean ticking() {
        Thread t = loop;
        return t != null && !closed && t.isAlive() && fault.failure() == null && settings.claimGate().getAsBoolean();
    }

    /** See {@code Pipeline} for the contract. */
    public DispatchHealth dispatchHealth() {
        requireOpen();
        return health.measure();
    }

    /**
     * See {@code Pipeline} for the contract.
     *
     * @param tenant the tenant id
     * @return its health, or empty when the queue never saw the tenant
     */
    public Optional<TenantHealth> tenantHealth(String tenant) {
        Objects.requireNonNull(tenant, "tenant");
        requireOpen();
        return health.tenant(tenant);
    }

    /**
     * See {@code Pipeline} for the contract.
     *
     * @param limit the most tenants in each list, at least 1
     * @return the tenants
     */
    public TroubledTenants troubledTenants(int limit) {
        requireOpen();
        return health.troubled(limit);
    }

    /** Starts the tick loop and the gauge schedule; idempotent. */
    public void start() {
        synchronized (lifecycle) {
            requireOpen();
            if (loop == null) {
                loopStartedNanos = nanoTime.getAsLong();
                loop = new Thread(this::runLoop, "ankusa-dispatch-tick");
                loop.setDaemon(true);
                loop.start();
                gaugeSchedule = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "ankusa-dispatch-gauges");
                    t.setDaemon(true);
                    return t;
                });
                long every = settings.gaugeInterval().toMillis();
                gaugeSchedule.scheduleAtFixedRate(this::reportGauges, every, every, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** See {@code Pipeline} for the contract. */
    public CompletionStage<TickReport> tick() {
        requireOpen();
        fault.check();
        return tick.run().settled();
    }

    /** See {@code Pipeline} for the contract. */
    public Gauges gauges() {
        return gauges.measure();
    }

    /** Ordering keys a read of {@link #orderedKeys} looks at, at most. */
    static final int ORDERED_KEYS_SCAN = 10_000;

    /** See {@code Pipeline} for the contract. */
    public List<OrderedKey> orderedKeys(String tenant, int limit) {
        Objects.requireNonNull(tenant, "tenant");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        requireOpen();
        OptionalLong ord = directory.ord(tenant);
        if (ord.isEmpty()) {
            return List.of();
        }
        List<OrderedKey> out = new ArrayList<>();
        for (OrderGroup g : ledger.orderGroups(ord.getAsLong(), limit, ORDERED_KEYS_SCAN)) {
            Optional<Hook> head = ledger.storedHook(g.headSeq());
            out.add(new OrderedKey(tenant, g.sink(), head.flatMap(Hook::orderingKey).orElse(""),
                    head.map(Hook::id).orElse(""), g.headSeq(), g.waiting(), g.headAttempts(), g.headLastError()));
        }
        return out;
    }

    /** See {@code Pipeline} for the contract. */
    public Optional<TenantDispatch> tenantDispatch(String tenant) {
        Objects.requireNonNull(tenant, "tenant");
        requireOpen();
        OptionalLong ord = directory.ord(tenant);
        if (ord.isEmpty()) {
            return Optional.empty();
        }
        return tick.inspect(() -> scheduler.view(ord.getAsLong(), nanoTime.getAsLong()));
    }

    /** See {@code Pipeline} for the contract. */
    public DueTenants dueTenants(long after, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        requireOpen();
        return tick.inspect(() -> scheduler.dueTenants(after, limit, nanoTime.getAsLong()));
    }

    /** See {@code Pipeline} for the contract. */
    public long eventsDropped() {
        return events.dropped();
    }

    /**
     * See {@code Pipeline} for the contract.
     *
     * @param listener the listener to add
     */
    public void addListener(QueueListener listener) {
        requireOpen();
        events.attach(listener);
    }

    /**
     * The tick loop. A {@link RuntimeException} fails one tick (logged; the loop tries again after
     * the tick interval). Any other {@link Throwable} (an {@code Error}) ends the loop: it records
     * itself in the queue's {@link QueueFault}, so {@code Queue.health()} reports the queue failed,
     * {@link #tick()} and every later settle fail with {@code QueueFailedException} naming it, and
     * {@link #close()} still returns.
     */
    private void runLoop() {
        try {
            loop();
        } catch (Throwable e) {
            fault.fail("dispatch tick loop", e);
        }
    }

    /**
     * The tick loop: a tick claims at most {@link #loopTickRows} rows, at once again while ticks
     * find more due rows than that, after the tick interval once they do not. Before a tick it
     * waits (up to the tick interval) for that many free slots, so that each tick claims a full
     * share rather than the few slots the last settles gave back; with at most half the slots per
     * tick, one tick's claim overlaps the settle commit of the tick before.
     */
    private void loop() {
        int tickRows = loopTickRows(settings.rowsPerTick(), settings.concurrency());
        long interval = settings.tickInterval().toNanos();
        while (!closed && fault.failure() == null) {
            if (!settings.claimGate().getAsBoolean()) {
                // The gate is closed: no tick, no slot wait; look again after the tick interval.
                LockSupport.parkNanos(this, interval);
                continue;
            }
            boolean again = false;
            try {
                awaitSlots(tickRows, interval);
                Tick.Run run = tick.run(tickRows);
                // Held back by an endpoint at its concurrency limit: its next settle wakes the loop.
                slotLimited = scheduler.heldByEndpointSlots();
                // Every slot still busy after the wait: wait for slots again rather than for work.
                again = run.rowBudget() == 0 || run.claimed() >= run.rowBudget();
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.error("dispatch tick failed; trying again after the tick interval", e);
            }
            if (!again && !closed) {
                LockSupport.parkNanos(this, untilNextTick(interval));
            }
        }
    }

    /**
     * How long the loop pauses after a tick that did not fill its row limit: the tick interval, or
     * less when a tenant waiting for delivery tokens gets its next one sooner (at least 1 ms), so a
     * rate-limited tenant is served at its token times rather than at the interval's.
     */
    private long untilNextTick(long interval) {
        long tokenAt = tick.inspect(scheduler::nextTokenNanos);
        if (tokenAt == Long.MAX_VALUE) {
            return interval;
        }
        return Math.max(MIN_PAUSE_NANOS, Math.min(interval, tokenAt - nanoTime.getAsLong()));
    }

    /**
     * Rows the tick loop claims per tick: the row limit, and at most half the concurrency, so that
     * the other half of the slots can be settling while a tick claims (at least 1).
     *
     * @param rowsPerTick the builder's row limit
     * @param concurrency the builder's concurrency
     * @return the most rows one tick of the loop claims
     */
    static int loopTickRows(int rowsPerTick, int concurrency) {
        return Math.max(1, Math.min(rowsPerTick, concurrency / 2));
    }

    /** Parks until {@code wanted} slots are free, the pipeline closes, or {@code maxNanos} passed. */
    private void awaitSlots(int wanted, long maxNanos) {
        if (attempts.freeSlots() >= wanted) {
            return;
        }
        slotsWanted = wanted;
        try {
            long deadline = System.nanoTime() + maxNanos;
            while (!closed && attempts.freeSlots() < wanted) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                LockSupport.parkNanos(this, left);
            }
        } finally {
            slotsWanted = Integer.MAX_VALUE;
        }
    }

    /**
     * A settled row gave its slot back: wakes the tick loop once as many slots are free as it waits
     * for, or when the last tick was held back by an endpoint's slots.
     */
    private void slotFreed() {
        Thread t = loop;
        if (t != null && (slotLimited || attempts.freeSlots() >= slotsWanted)) {
            LockSupport.unpark(t);
        }
    }

    private void reportGauges() {
        Gauges snapshot;
        try {
            snapshot = gauges.measure();
        } catch (RuntimeException e) {
            LOG.warn("measuring the gauges failed", e);
            return;
        }
        for (GaugeListener listener : settings.gaugeListeners()) {
            try {
                listener.onGauges(snapshot);
            } catch (RuntimeException e) {
                LOG.warn("gauge listener {} failed", listener, e);
            }
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the pipeline is closed");
        }
    }

    @Override
    public void close() {
        Thread stopping;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            stopping = loop;
            if (gaugeSchedule != null) {
                gaugeSchedule.shutdownNow();
            }
        }
        try {
            if (stopping != null) {
                LockSupport.unpark(stopping);
                stopping.join();
            }
            // A failed queue settles nothing more (every settle fails): nothing to wait for, and a tick
            // loop killed inside a sink call never gave its slots back.
            if (fault.failure() == null && !attempts.awaitIdle(settings.sinkDeadline().plusSeconds(5))) {
                LOG.warn("closed with {} deliveries unsettled; they return to due when the queue is next opened",
                        attempts.busySlots());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            settler.close();
            events.close();
        }
    }
}
