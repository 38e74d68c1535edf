package io.ankusa.micrometer;

import io.ankusa.api.events.AttemptFinished;
import io.ankusa.api.events.DeadLettered;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.EndpointStateChanged;
import io.ankusa.api.events.IngestCommitted;
import io.ankusa.api.events.Quarantined;
import io.ankusa.api.DiskUsage;
import io.ankusa.api.events.QueueListener;
import io.ankusa.api.events.RetryScheduled;
import io.ankusa.api.events.TickFinished;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.QueueMonitor;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.TenantPending;
import io.ankusa.dispatch.report.TroubledTenants;
import io.ankusa.queue.Queue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Ankusa's meters: a Micrometer {@link MeterBinder} that is also the {@link QueueListener} feeding
 * it. One call binds it to a running node — it listens to the queue and the pipeline, reads the
 * queue's gauges, and registers its meters:
 *
 * <pre>{@code
 * AnkusaMetrics.builder().topTenants(10).build().bindTo(registry, queue, pipeline);
 * }</pre>
 *
 * <p>To count from the very first event instead, register it as a listener where the queue and
 * the pipeline are built ({@code QueueConfig.Builder.listener}, {@code Pipeline.Builder.listener})
 * and then call {@link #monitor(Queue)} and {@link #bindTo(MeterRegistry)}.
 *
 * <p><b>Meters</b> (docs/operations.md lists them with their tags): node gauges read from the
 * queue's counters through a {@link QueueMonitor} ({@code ankusa.deliveries.pending},
 * {@code .scheduled}, {@code .inflight}, {@code .dead}, {@code .bytes}, {@code ankusa.archive.pending},
 * {@code ankusa.backlog.age}, {@code ankusa.tenants}) and from its disk usage
 * ({@code Queue.diskUsage()}: {@code ankusa.store.size}, {@code ankusa.store.history.size},
 * {@code ankusa.store.history.max}); timers for the ingest commit, each sink attempt and each tick;
 * counters of ingest outcomes by reason, of attempts by outcome (the attempt timer's count), retries,
 * dead letters, settlements, endpoint state changes, quarantined records and dropped events.
 *
 * <p><b>Per-tenant series and their cap.</b> Tenants are unbounded (TEN-1 allows 10⁶), series are
 * not: the only per-tenant meter is the gauge {@code ankusa.tenant.pending{tenant}}, kept for the
 * top {@code N} tenants by pending rows ({@link Builder#topTenants}, default 10, at most 100). The
 * set is recomputed with the snapshot; a tenant that leaves the top N has its series removed, so
 * at most N tenant series exist at any time. Every event meter is tagged by outcome or reason only,
 * never by tenant, hook or endpoint.
 *
 * <p><b>Cost.</b> The gauges share one snapshot, measured at most once per
 * {@link Builder#refreshInterval} (default 5 s) on the scraping thread; no family is folded. The
 * event meters are updated on the listener threads of the hand-off, never on the writer, tick or
 * settler thread. Events that arrive before {@link #bindTo} are not counted anywhere.
 *
 * <p>Thread-safe; may be bound to several registries.
 */
public final class AnkusaMetrics implements MeterBinder, QueueListener {

    /** Most per-tenant series {@link Builder#topTenants} allows. */
    public static final int MAX_TOP_TENANTS = 100;

    private final int topTenants;
    private final Duration refreshInterval;
    private final Tags tags;
    private final List<RegistryMeters> registries = new CopyOnWriteArrayList<>();
    private volatile Snapshots<Gauges, List<TenantPending>> snapshots;
    private volatile Snapshots<DiskUsage, DiskUsage> disk;
    private volatile Snapshots<HealthSnapshot, TroubledTenants> health;
    private final List<MeterRegistry> bound = new CopyOnWriteArrayList<>();
    private final Map<MeterRegistry, HealthMeters> healthMeters = new IdentityHashMap<>();

    private AnkusaMetrics(Builder builder) {
        this.topTenants = builder.topTenants;
        this.refreshInterval = builder.refreshInterval;
        this.tags = builder.tags;
    }

    /**
     * A builder with the defaults: top 10 tenants, snapshot refreshed every 5 s, no common tags.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A binder with the defaults of {@link #builder()}.
     *
     * @return the binder
     */
    public static AnkusaMetrics create() {
        return builder().build();
    }

    /**
     * Reads the node gauges of {@code queue} from now on (through a {@link QueueMonitor}); until
     * called, the gauges read {@code NaN}. Call again after reopening the queue.
     *
     * @param queue an open queue
     * @return this binder
     */
    public AnkusaMetrics monitor(Queue queue) {
        QueueMonitor monitor = QueueMonitor.of(Objects.requireNonNull(queue, "queue"));
        Snapshots<Gauges, List<TenantPending>> fresh = new Snapshots<>(monitor::gauges,
                g -> g.topTenantsByPending().subList(0, Math.min(topTenants, g.topTenantsByPending().size())),
                refreshInterval);
        this.snapshots = fresh;
        this.disk = new Snapshots<>(queue::diskUsage, d -> d, refreshInterval);
        registries.forEach(r -> r.tenants().follow(fresh));
        return this;
    }

    /**
     * Measures the gauge snapshot now and updates the per-tenant series to its top tenants. A
     * scrape measures by itself when the snapshot is older than the refresh interval, but the
     * per-tenant series it adds then appear from the next scrape on; call this just before a scrape
     * (or on a schedule) to have them in the same one. Does nothing before {@link #monitor}.
     */
    public void refresh() {
        Snapshots<Gauges, List<TenantPending>> current = snapshots;
        if (current != null) {
            current.measure();
        }
        Snapshots<DiskUsage, DiskUsage> currentDisk = disk;
        if (currentDisk != null) {
            currentDisk.measure();
        }
        Snapshots<HealthSnapshot, TroubledTenants> currentHealth = health;
        if (currentHealth != null) {
            currentHealth.measure();
        }
    }

    /**
     * Reads {@code pipeline}'s health from now on (its {@link Pipeline#dispatchHealth()} and
     * {@link Pipeline#troubledTenants}, in one snapshot per refresh interval) and registers the health
     * meters in every registry bound, now and later: {@code ankusa.backlog.deliverable.age},
     * {@code ankusa.held.tenants}, {@code ankusa.held.rows} and {@code ankusa.held.age} by
     * {@code reason}, and the per-tenant {@code ankusa.tenant.oldest.due.age{tenant}} and
     * {@code ankusa.tenant.failure.rate{tenant}} for the top N tenants by each. Call again after
     * rebuilding the pipeline.
     *
     * @param pipeline the node's pipeline
     * @return this binder
     */
    public AnkusaMetrics watch(Pipeline pipeline) {
        Objects.requireNonNull(pipeline, "pipeline");
        Snapshots<HealthSnapshot, TroubledTenants> fresh =
                new Snapshots<>(() -> HealthSnapshot.of(pipeline, topTenants), HealthSnapshot::troubled,
                        refreshInterval);
        this.health = fresh;
        bound.forEach(r -> bindHealth(r, fresh));
        return this;
    }

    private synchronized void bindHealth(MeterRegistry registry, Snapshots<HealthSnapshot, TroubledTenants> current) {
        HealthMeters meters = healthMeters.get(registry);
        if (meters == null) {
            meters = new HealthMeters(registry, tags, () -> health);
            meters.bind();
            healthMeters.put(registry, meters);
        }
        meters.follow(current);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        RegistryMeters meters = new RegistryMeters(registry, tags, this::snapshots, this::disk);
        meters.bindGauges();
        Snapshots<Gauges, List<TenantPending>> current = snapshots;
        if (current != null) {
            meters.tenants().follow(current);
        }
        registries.add(meters);
        bound.add(registry);
        Snapshots<HealthSnapshot, TroubledTenants> currentHealth = health;
        if (currentHealth != null) {
            bindHealth(registry, currentHealth);
        }
    }

    /**
     * Binds these meters to a running node in one call: listens to {@code queue}'s and
     * {@code pipeline}'s events from now on, reads {@code queue}'s node gauges and
     * {@code pipeline}'s health ({@link #watch}), and binds to
     * {@code registry}. Events before this call are not counted. The usual way to meter a node
     * whose queue and pipeline are built already.
     *
     * @param registry where the meters go
     * @param queue    the open queue whose gauges and events are metered
     * @param pipeline the queue's pipeline, whose attempts, settles and ticks are metered
     * @return this binder
     */
    public AnkusaMetrics bindTo(MeterRegistry registry, Queue queue, Pipeline pipeline) {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(pipeline, "pipeline");
        monitor(queue);
        watch(pipeline);
        bindTo(registry);
        queue.addListener(this);
        pipeline.addListener(this);
        return this;
    }

    private Snapshots<Gauges, List<TenantPending>> snapshots() {
        return snapshots;
    }

    private Snapshots<DiskUsage, DiskUsage> disk() {
        return disk;
    }

    @Override
    public void onIngestCommitted(IngestCommitted event) {
        for (RegistryMeters m : registries) {
            m.timer("ankusa.ingest.commit", "Time of one ingest batch on the writer, to the end of its synced commit",
                    Tags.empty()).record(event.latency());
            m.summary("ankusa.ingest.batch.size", "Hooks per ingest batch").record(event.batchSize());
            m.count("ankusa.ingest.hooks", Tags.of("outcome", "accepted", "reason", "none"), event.accepted());
            m.count("ankusa.ingest.hooks", Tags.of("outcome", "duplicate", "reason", "none"), event.duplicates());
            m.count("ankusa.ingest.hooks", Tags.of("outcome", "failed", "reason", "none"), event.failed());
            for (Map.Entry<String, Integer> refused : event.refused().entrySet()) {
                m.count("ankusa.ingest.hooks", Tags.of("outcome", "refused", "reason", refused.getKey()),
                        refused.getValue());
            }
        }
    }

    @Override
    public void onAttemptFinished(AttemptFinished event) {
        Tags outcome = Tags.of("outcome", event.outcome().name().toLowerCase(Locale.ROOT));
        for (RegistryMeters m : registries) {
            m.timer("ankusa.attempts", "Sink attempts, by outcome, from hand-over to the sink's answer", outcome)
                    .record(event.latency());
        }
    }

    @Override
    public void onRetryScheduled(RetryScheduled event) {
        registries.forEach(m -> m.count("ankusa.retries", Tags.empty(), 1));
    }

    @Override
    public void onDeadLettered(DeadLettered event) {
        registries.forEach(m -> m.count("ankusa.dead.lettered", Tags.empty(), 1));
    }

    @Override
    public void onSettled(DeliverySettled event) {
        Tags result = Tags.of("result", event.result().name().toLowerCase(Locale.ROOT));
        registries.forEach(m -> m.count("ankusa.settled", result, 1));
    }

    @Override
    public void onEndpointStateChanged(EndpointStateChanged event) {
        Tags state = Tags.of("state", event.state().name().toLowerCase(Locale.ROOT));
        registries.forEach(m -> m.count("ankusa.endpoint.state.changes", state, 1));
    }

    @Override
    public void onTick(TickFinished event) {
        for (RegistryMeters m : registries) {
            m.timer("ankusa.tick", "Dispatch ticks: planning, claim, marker cleanup and hand-over", Tags.empty())
                    .record(event.duration());
            m.summary("ankusa.tick.rows", "Rows claimed per tick").record(event.rows());
            m.summary("ankusa.tick.tenants", "Tenants visited per tick").record(event.tenants());
        }
    }

    @Override
    public void onQuarantined(Quarantined event) {
        Tags family = Tags.of("family", event.family());
        registries.forEach(m -> m.count("ankusa.quarantined", family, 1));
    }

    @Override
    public void onEventsDropped(long count) {
        registries.forEach(m -> m.count("ankusa.events.dropped", Tags.empty(), count));
    }

    /** Configures {@link AnkusaMetrics}. */
    public static final class Builder {

        private int topTenants = 10;
        private Duration refreshInterval = Duration.ofSeconds(5);
        private Tags tags = Tags.empty();

        private Builder() {
        }

        /**
         * How many tenants get a {@code ankusa.tenant.pending} series: the top {@code n} by pending
         * rows; 0 for none.
         *
         * @param n 0..{@value AnkusaMetrics#MAX_TOP_TENANTS}
         * @return this builder
         */
        public Builder topTenants(int n) {
            if (n < 0 || n > MAX_TOP_TENANTS) {
                throw new IllegalArgumentException("topTenants must be in 0.." + MAX_TOP_TENANTS + ": " + n);
            }
            this.topTenants = n;
            return this;
        }

        /**
         * How old the gauge snapshot may be before a read measures a new one.
         *
         * @param interval zero or positive
         * @return this builder
         */
        public Builder refreshInterval(Duration interval) {
            Objects.requireNonNull(interval, "interval");
            if (interval.isNegative()) {
                throw new IllegalArgumentException("refreshInterval must not be negative: " + interval);
            }
            this.refreshInterval = interval;
            return this;
        }

        /**
         * Tags added to every meter (for example the node or the store).
         *
         * @param tags the tags
         * @return this builder
         */
        public Builder tags(Iterable<Tag> tags) {
            this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
            return this;
        }

        /**
         * The binder.
         *
         * @return a new binder
         */
        public AnkusaMetrics build() {
            return new AnkusaMetrics(this);
        }
    }
}
