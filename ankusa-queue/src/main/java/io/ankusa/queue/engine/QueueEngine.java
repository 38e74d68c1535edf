package io.ankusa.queue.engine;

import io.ankusa.api.AttemptPage;
import io.ankusa.api.AttemptQuery;
import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.DeadStats;
import io.ankusa.api.DiskUsage;
import io.ankusa.api.EndpointSettings;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.ErasureResult;
import io.ankusa.api.Hook;
import io.ankusa.api.IntakePosition;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.api.QuarantineResult;
import io.ankusa.api.QuarantinedDelivery;
import io.ankusa.api.QueueClosedException;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueFailedException;
import io.ankusa.api.QueueHealth;
import io.ankusa.api.QueueStats;
import io.ankusa.api.Receipt;
import io.ankusa.api.StoredHook;
import io.ankusa.api.TenantPage;
import io.ankusa.api.TenantQuery;
import io.ankusa.api.TenantStats;
import io.ankusa.api.events.EndpointState;
import io.ankusa.api.events.QueueListener;
import io.ankusa.keys.Ordinals;
import io.ankusa.keys.TenantIds;
import io.ankusa.queue.admission.PolicyCache;
import io.ankusa.queue.deliveries.ArchiveObligations;
import io.ankusa.queue.deliveries.AttemptHistory;
import io.ankusa.queue.deliveries.Counters;
import io.ankusa.queue.deliveries.EndpointBook;
import io.ankusa.queue.deliveries.RegistryBook;
import io.ankusa.queue.deliveries.Expansion;
import io.ankusa.queue.deliveries.HookReads;
import io.ankusa.queue.deliveries.Quarantine;
import io.ankusa.queue.deliveries.StoreDeliveryLedger;
import io.ankusa.queue.deliveries.TenantErasure;
import io.ankusa.queue.deliveries.TenantPurge;
import io.ankusa.queue.deliveries.TenantStripes;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.intake.IdempotencyKeys;
import io.ankusa.queue.intake.IngestTracing;
import io.ankusa.queue.intake.IngestWriter;
import io.ankusa.queue.intake.IntakePositions;
import io.ankusa.queue.intake.LastSeq;
import io.ankusa.queue.intake.PersistedClock;
import io.ankusa.queue.intake.ReceiptRelay;
import io.ankusa.queue.intake.TenantOrdinals;
import io.ankusa.queue.ledger.AuditRecorder;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.EndpointLedger;
import io.ankusa.queue.ledger.EndpointLimits;
import io.ankusa.queue.ledger.EndpointRow;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.QuarantinedRow;
import io.ankusa.queue.ledger.QueueClock;
import io.ankusa.queue.ledger.QueueFault;
import io.ankusa.queue.ledger.TenantDirectory;
import io.ankusa.queue.migration.FormatGuard;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.queue.migration.StoreLayout;
import io.ankusa.queue.upkeep.AuditLog;
import io.ankusa.queue.upkeep.AuditedEndpoints;
import io.ankusa.queue.upkeep.AuditedRegistry;
import io.ankusa.queue.upkeep.AuditedErasure;
import io.ankusa.queue.upkeep.AuditedPurge;
import io.ankusa.queue.upkeep.AuditedQuarantine;
import io.ankusa.queue.upkeep.HookReclaimer;
import io.ankusa.queue.upkeep.Housekeeping;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue over one store: wires the format guard, tenant ordinals, stripes, the ledger, the
 * maintenance transitions and the ingest writer, and owns their lifecycle. It holds every method
 * of {@code io.ankusa.queue.Queue} but does not name that interface (the API package depends on
 * this one, never the reverse): the API's package-private {@code EngineQueue} is the subclass that
 * adds the interface, and a test may add it the same way through {@link Factory}. The API package
 * reaches the parts through {@link #of(AutoCloseable)}.
 */
public class QueueEngine implements LedgerSource, TenantDirectory, AuditRecorder, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(QueueEngine.class);

    private final QueueConfig config;
    private final IngestTracing tracing;
    private final Store store;
    private final QueueClock clock;
    private final TenantOrdinals ordinals;
    private final TenantStripes stripes;
    private final StoreDeliveryLedger ledger;
    private final AttemptHistory history;
    private final TenantPurge purge;
    private final ArchiveObligations archive;
    private final Expansion expansion;
    private final IngestWriter writer;
    private final EventHub events;
    private final ReceiptRelay receipts;
    private final AuditLog audit;
    private final IdempotencyKeys idempotencyKeys;
    private final HookReclaimer reclaimer;
    private final Housekeeping housekeeping;
    private final DeadLetters deadLetters;
    private final TenantListing tenantListing;
    private final AuditedPurge auditedPurge;
    private final AuditedErasure auditedErasure;
    private final Quarantine quarantine;
    private final AuditedQuarantine auditedQuarantine;
    private final PolicyCache tenantPolicies;
    private final EndpointBook endpointBook;
    private final AuditedEndpoints auditedEndpoints;
    private final RegistryBook registryBook;
    private final EndpointLimits endpointLimits;
    private final AuditedRegistry registry;
    private final QueueFault fault = new QueueFault();
    private volatile boolean closed;

    /**
     * Builds the queue object over an opened, format-checked store: a subclass that adds the
     * {@code Queue} interface.
     *
     * @param <Q> the queue type
     */
    @FunctionalInterface
    public interface Factory<Q extends QueueEngine> {

        /**
         * Calls the subclass constructor.
         *
         * @param config the configuration
         * @param store  the opened store, at the current format
         * @return the queue, running
         */
        Q create(QueueConfig config, Store store);
    }

    /**
     * Wires the parts over {@code store} (open, at the current format) and starts the writer.
     *
     * @param config the configuration
     * @param store  the store; closed by {@link #close()}
     */
    protected QueueEngine(QueueConfig config, Store store) {
        this(config, store, QueueClock.monotonicOf(config.clock()));
    }

    /**
     * Wires the parts over {@code store} with {@code monotonicNanos} as the queue clock's
     * monotonic source (tests and simulations that step their wall clock: a move of the wall that
     * this source does not share is a clock step, not time passing) and starts the writer.
     *
     * @param config         the configuration
     * @param store          the store; closed by {@link #close()}
     * @param monotonicNanos a monotonic nanosecond clock
     */
    protected QueueEngine(QueueConfig config, Store store, LongSupplier monotonicNanos) {
        this(config, store, QueueClock.of(config.clock(), monotonicNanos, PersistedClock.read(store)));
    }

    /**
     * Wires the parts over {@code store} with {@code clock} as the queue clock (tests: a
     * {@link QueueClock#wallOnly} clock to replay a late writer) and starts the writer.
     *
     * @param config the configuration
     * @param store  the store; closed by {@link #close()}
     * @param clock  the queue clock
     */
    protected QueueEngine(QueueConfig config, Store store, QueueClock clock) {
        this(config, store, clock, OpenTelemetry.noop());
    }

    /**
     * Wires the parts over {@code store}, tracing ingest with {@code openTelemetry}, and starts the
     * writer.
     *
     * @param config        the configuration
     * @param store         the store; closed by {@link #close()}
     * @param openTelemetry where the ingest spans go and whose propagator captures the caller's context
     */
    protected QueueEngine(QueueConfig config, Store store, OpenTelemetry openTelemetry) {
        this(config, store, QueueClock.of(config.clock(), QueueClock.monotonicOf(config.clock()),
                PersistedClock.read(store)), openTelemetry);
    }

    /**
     * Wires the parts over {@code store} with {@code clock} as the queue clock, tracing ingest with
     * {@code openTelemetry}, and starts the writer.
     *
     * @param config        the configuration
     * @param store         the store; closed by {@link #close()}
     * @param clock         the queue clock
     * @param openTelemetry where the ingest spans go and whose propagator captures the caller's context
     */
    protected QueueEngine(QueueConfig config, Store store, QueueClock clock, OpenTelemetry openTelemetry) {
        this.tracing = IngestTracing.of(openTelemetry);
        this.config = config;
        this.store = store;
        this.clock = clock;
        LongSupplier monotonicNanos = clock::monotonicNanos;
        if (clock.aheadOfWall() > 0) {
            LOG.warn("the wall clock is {} ms behind the queue clock persisted by the last run: the queue clock "
                    + "starts from the persisted time and runs at half speed until the wall catches up",
                    clock.aheadOfWall());
        }
        this.tenantPolicies = new PolicyCache(config.tenantPolicies());
        this.ordinals = TenantOrdinals.load(store, config.tenantsMax());
        this.stripes = new TenantStripes(TenantStripes.DEFAULT_STRIPES);
        this.history = new AttemptHistory(store, stripes, config.attemptsPerDelivery());
        // The highest seq at open (every delivery row's seq is at or below it): the ledger's claims
        // read the delivery rows of rows up to it, and the writer's first seq is above it.
        long lastSeqAtOpen = LastSeq.recover(store);
        this.ledger = new StoreDeliveryLedger(store, stripes, clock, history, lastSeqAtOpen);
        this.purge = new TenantPurge(store, stripes);
        this.archive = new ArchiveObligations(store, stripes);
        this.expansion = new Expansion(store, stripes, ordinals::ord, ledger.dueStamps());
        int recovered = ledger.recoverInflight();
        if (recovered > 0) {
            LOG.info("moved {} inflight deliveries left by the last run back to due", recovered);
        }
        this.audit = AuditLog.open(store, clock);
        this.idempotencyKeys = new IdempotencyKeys(store, config.dedupeWindow().toMillis());
        this.reclaimer = new HookReclaimer(store, stripes, ordinals);
        this.deadLetters = new DeadLetters(store, ordinals, ledger);
        this.tenantListing = new TenantListing(store);
        this.auditedPurge = new AuditedPurge(ordinals, purge, audit);
        this.events = EventHub.start(config.listeners(), config.eventCapacity(), "ankusa-queue-events");
        this.quarantine = new Quarantine(store, stripes, ledger.dueStamps());
        this.auditedQuarantine = new AuditedQuarantine(ordinals, quarantine, audit);
        this.endpointBook = new EndpointBook(store, stripes);
        this.auditedEndpoints = new AuditedEndpoints(ordinals, endpointBook, audit, events, clock);
        this.registryBook = new RegistryBook(store);
        this.endpointLimits = new RegisteredLimits(registryBook, ordinals);
        this.registry = new AuditedRegistry(registryBook, tenant -> ordinals.ord(tenant).orElse(0), endpointBook, audit,
                clock);
        this.writer =
                IngestWriter.start(store, ordinals, ledger.dueStamps(), new IngestWriter.Limits(config.batchMaxHooks(),
                config.batchMaxBytes(), config.ingestQueueCapacity(), config.archive()), idempotencyKeys, fault,
                lastSeqAtOpen, new IngestWriter.Admission(tenantPolicies, monotonicNanos, config.nodeMaxBytes()),
                events, registryBook);
        this.receipts = ReceiptRelay.on(config.completionExecutor());
        this.auditedErasure = new AuditedErasure(ordinals, writer, new TenantErasure(store, stripes, purge, quarantine,
                tenant -> writer.submitChore(() -> idempotencyKeys.eraseTenant(tenant)).join()), audit);
        auditedErasure.fenceUnfinished();
        this.housekeeping = new Housekeeping(reclaimer, writer, idempotencyKeys, audit, clock, config.auditRetention(),
                fault, history, config.attemptsRetention(), config.attemptsMaxBytes());
        if (!config.housekeepingInterval().isZero()) {
            housekeeping.start(config.housekeepingInterval());
        }
    }

    /**
     * Opens a queue: opens the store, refuses a newer format, runs {@code migrations} on an older
     * one, wraps it with {@code wrap} (tests: a store that records or fails calls; closing the queue
     * closes the wrapper) and builds the queue with {@code factory}.
     *
     * @param <Q>        the queue type
     * @param config     the configuration
     * @param migrations the migrations an older store may need
     * @param wrap       applied to the opened store before the queue uses it
     * @param factory    the subclass constructor
     * @return the running queue
     */
    public static <Q extends QueueEngine> Q open(QueueConfig config, Migrations migrations, UnaryOperator<Store> wrap,
            Factory<Q> factory) {
        Objects.requireNonNull(config, "config");
        StoreOptions options = StoreOptions.create(config.directory(), StoreLayout.families());
        for (var setting : config.storeSettings().entrySet()) {
            options = options.with(setting.getKey(), setting.getValue());
        }
        Store opened = Stores.open(config.backend(), options);
        Store store;
        try {
            store = Objects.requireNonNull(wrap.apply(opened), "wrapped store");
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
        try {
            FormatGuard.prepare(store, migrations, config);
            return Objects.requireNonNull(factory.create(config, store), "queue");
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * The engine behind {@code queue} (typed {@link AutoCloseable} because this package does not
     * name the API's {@code Queue}).
     *
     * @param queue a queue from {@code Queue.open}
     * @return its engine
     * @throws IllegalArgumentException when it is not an Ankusa queue
     */
    @Override
    public TenantDirectory tenantDirectory() {
        return this;
    }

    @Override
    public AuditRecorder auditRecorder() {
        return this;
    }

    public static QueueEngine of(AutoCloseable queue) {
        if (queue instanceof QueueEngine engine) {
            return engine;
        }
        throw new IllegalArgumentException("not an Ankusa queue engine: " + queue.getClass().getName());
    }

    /** See {@code Queue}. */
    public CompletableFuture<Receipt> ingest(Hook hook) {
        return ingest(hook, Duration.ZERO);
    }

    /** See {@code Queue}. */
    public CompletableFuture<Receipt> ingest(Hook hook, Duration timeout) {
        return submit(hook, null, timeout);
    }

    /** See {@code Queue}. */
    public CompletableFuture<Receipt> ingest(Hook hook, IntakePosition position, Duration timeout) {
        return submit(hook, Objects.requireNonNull(position, "position"), timeout);
    }

    /** See {@code Queue}. */
    public OptionalLong intakePosition(String source) {
        return IntakePositions.read(store, new IntakePosition(source, 0));
    }

    private CompletableFuture<Receipt> submit(Hook hook, IntakePosition position, Duration timeout) {
        Objects.requireNonNull(hook, "hook");
        Objects.requireNonNull(timeout, "timeout");
        QueueFailedException failed = fault.failure();
        if (failed != null) {
            return CompletableFuture.failedFuture(failed);
        }
        try {
            QueueConfig.checkPayload(hook, config.payloadMaxBytes());
        } catch (InvalidHookException refusal) {
            return CompletableFuture.failedFuture(refusal);
        }
        if (!tracing.enabled()) {
            return receipts.relay(writer.submit(hook, position, timeout));
        }
        IngestTracing.Ingest traced = tracing.begin(hook);
        return receipts.relay(traced.endWith(writer.submit(hook, traced.stored(), position, timeout)));
    }

    /**
     * The OpenTelemetry the queue traces ingest with ({@link OpenTelemetry#noop()} unless it was
     * opened with one); a pipeline over the queue traces its attempts with it unless told otherwise.
     *
     * @return the queue's OpenTelemetry
     */
    @Override
    public OpenTelemetry openTelemetry() {
        return tracing.openTelemetry();
    }

    /** See {@code Queue}. */
    public QueueHealth health() {
        return closed ? QueueHealth.CLOSED : fault.health();
    }

    /** See {@code Queue}. */
    public TenantStats pendingForTenant(String tenant) {
        OptionalLong ord = ordinals.ord(tenant);
        return ord.isEmpty() ? TenantStats.EMPTY : Counters.read(store, ord.getAsLong()).tenantStats();
    }

    /** See {@code Queue}. */
    public DeadStats deadForTenant(String tenant) {
        OptionalLong ord = ordinals.ord(tenant);
        return ord.isEmpty() ? DeadStats.EMPTY : Counters.read(store, ord.getAsLong()).deadStats();
    }

    /** See {@code Queue}. */
    public QueueStats stats() {
        return Counters.read(store, Ordinals.AGGREGATE).queueStats();
    }

    /** See {@code Queue}. */
    public DiskUsage diskUsage() {
        // A counter that an older release's writes left short can read below 0: report 0.
        return new DiskUsage(store.sizeBytes(), Math.max(0, history.historyBytes()), config.attemptsMaxBytes());
    }

    /** See {@code Queue}. */
    public long tenantCount() {
        return ordinals.tenantCount();
    }

    /** See {@code Queue}. */
    public TenantPage tenants(TenantQuery query) {
        return tenantListing.page(Objects.requireNonNull(query, "query"));
    }

    /** See {@code Queue}. */
    public Optional<StoredHook> hook(String tenant, long seq) {
        OptionalLong ord = ordinals.ord(Objects.requireNonNull(tenant, "tenant"));
        if (ord.isEmpty()) {
            return Optional.empty();
        }
        return HookReads.read(store, ord.getAsLong(), tenant, seq);
    }

    @Override
    public OptionalLong ord(String tenant) {
        return ordinals.ord(tenant);
    }

    @Override
    public Optional<String> name(long ord) {
        return ordinals.name(ord);
    }

    @Override
    public Map<Long, String> names(Collection<Long> ords) {
        return ordinals.names(ords);
    }

    /** See {@code Queue}. */
    public Optional<Duration> oldestDueAge() {
        // Markers of the second a tick ran in outlive their rows (cleanup never deletes the current
        // second's), so a drained backlog of more than 32 tenants leaves more stale markers than the
        // ledger verifies, and its fallback would age a marker with no row.
        QueueStats counted = stats();
        if (counted.pending() + counted.scheduled() == 0) {
            return Optional.empty();
        }
        OptionalLong at = ledger.oldestDueAt();
        if (at.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofMillis(clock.waitedSince(at.getAsLong(), clock.millis())));
    }

    /** See {@code Queue}. */
    public void checkpoint(Path target) {
        store.checkpoint(Objects.requireNonNull(target, "target"));
    }

    /** See {@code Queue}. */
    public DeadLetterPage deadLetters(DeadLetterQuery query) {
        return deadLetters.page(Objects.requireNonNull(query, "query"));
    }

    /** See {@code Queue}. */
    public PurgeResult purgeTenant(String tenant, Set<PurgeKind> kinds) {
        return purgeTenant(tenant, kinds, Optional.empty());
    }

    /** See {@code Queue}; audited with {@code actor}. */
    public PurgeResult purgeTenant(String tenant, Set<PurgeKind> kinds, Optional<String> actor) {
        fault.check();
        return auditedPurge.purge(tenant, kinds, actor);
    }

    /** See {@code Queue}. */
    public List<QuarantinedDelivery> quarantine(int limit) {
        return quarantine.page(Optional.empty(), requireListLimit(limit)).stream().map(this::quarantinedDelivery)
                .toList();
    }

    /** See {@code Queue}. */
    public List<QuarantinedDelivery> quarantine(String tenant, int limit) {
        requireListLimit(limit);
        OptionalLong ord = ordinals.ord(Objects.requireNonNull(tenant, "tenant"));
        if (ord.isEmpty()) {
            return List.of();
        }
        return quarantine.tenantRows(ord.getAsLong(), limit).stream().map(this::quarantinedDelivery).toList();
    }

    /** See {@code Queue}. */
    public QuarantineResult releaseQuarantine(String tenant) {
        return releaseQuarantine(tenant, Optional.empty());
    }

    /** See {@code Queue}; audited with {@code actor}. */
    public QuarantineResult releaseQuarantine(String tenant, Optional<String> actor) {
        fault.check();
        return auditedQuarantine.release(tenant, actor);
    }

    /** See {@code Queue}. */
    public QuarantineResult purgeQuarantine(String tenant) {
        return purgeQuarantine(tenant, Optional.empty());
    }

    /** See {@code Queue}; audited with {@code actor}. */
    public QuarantineResult purgeQuarantine(String tenant, Optional<String> actor) {
        fault.check();
        return auditedQuarantine.purge(tenant, actor);
    }

    private static int requireListLimit(int limit) {
        if (limit < 1 || limit > 10_000) {
            throw new IllegalArgumentException("limit must be 1..10000: " + limit);
        }
        return limit;
    }

    private QuarantinedDelivery quarantinedDelivery(QuarantinedRow q) {
        String tenant = ordinals.name(q.ord()).filter(n -> !n.isEmpty()).orElse("#" + q.ord());
        return new QuarantinedDelivery(tenant, q.seq(), q.sink(), q.size(),
                q.reason() == QuarantinedRow.Reason.HOOK_UNDECODABLE ? QuarantinedDelivery.Reason.HOOK_UNDECODABLE
                        : QuarantinedDelivery.Reason.DELIVERY_ROW_UNDECODABLE,
                Instant.ofEpochMilli(q.quarantinedAt()));
    }

    /** See {@code Queue}. */
    public AttemptPage attempts(AttemptQuery query) {
        Objects.requireNonNull(query, "query");
        OptionalLong ord = ordinals.ord(query.tenant());
        if (ord.isEmpty()) {
            return new AttemptPage(List.of(), false);
        }
        return history.page(ord.getAsLong(), query.tenant(), query.hookId(), query.cursor(), query.limit());
    }

    /** See {@code Queue}. */
    public ErasureResult eraseTenant(String tenant) {
        return eraseTenant(tenant, Optional.empty());
    }

    /** See {@code Queue}; audited with {@code actor}. */
    public ErasureResult eraseTenant(String tenant, Optional<String> actor) {
        OptionalLong ord = ordinals.ord(Objects.requireNonNull(tenant, "tenant"));
        ErasureResult erased = auditedErasure.erase(tenant, actor);
        if (TenantIds.problem(tenant).isEmpty()) {
            registryBook.erase(tenant);
        }
        ord.ifPresent(endpointBook::forget);
        return erased;
    }

    /** See {@code Queue}. */
    public List<EndpointStatus> endpoints(int limit) {
        return endpointBook.list(requireListLimit(limit)).stream().map(this::endpointStatus).toList();
    }

    /** See {@code Queue}. */
    public List<EndpointStatus> endpoints(String tenant, int limit) {
        requireListLimit(limit);
        OptionalLong ord = ordinals.ord(Objects.requireNonNull(tenant, "tenant"));
        if (ord.isEmpty()) {
            return List.of();
        }
        return endpointBook.tenant(ord.getAsLong(), limit).stream().map(this::endpointStatus).toList();
    }

    /** See {@code Queue}. */
    public EndpointStatus enableEndpoint(String tenant, int sink) {
        return enableEndpoint(tenant, sink, Optional.empty());
    }

    /** See {@code Queue}; audited with {@code actor}. */
    public EndpointStatus enableEndpoint(String tenant, int sink, Optional<String> actor) {
        fault.check();
        return endpointStatus(tenant, auditedEndpoints.enable(tenant, sink, actor));
    }

    /** See {@code Queue}. */
    public EndpointStatus disableEndpoint(String tenant, int sink) {
        return disableEndpoint(tenant, sink, Optional.empty());
    }

    /** See {@code Queue}; audited with {@code actor}. */
    public EndpointStatus disableEndpoint(String tenant, int sink, Optional<String> actor) {
        fault.check();
        return endpointStatus(tenant, auditedEndpoints.disable(tenant, sink, actor));
    }

    private EndpointStatus endpointStatus(EndpointRow row) {
        return endpointStatus(ordinals.name(row.ord()).filter(n -> !n.isEmpty()).orElse("#" + row.ord()), row);
    }

    private static EndpointStatus endpointStatus(String tenant, EndpointRow row) {
        return new EndpointStatus(tenant, row.sink(), row.disabled() ? EndpointState.DISABLED : EndpointState.ACTIVE,
                row.disabledBy(), row.disabled() ? Optional.of(Instant.ofEpochMilli(row.since())) : Optional.empty(),
                row.failingSince() > 0 ? Optional.of(Instant.ofEpochMilli(row.failingSince())) : Optional.empty());
    }

    /** See {@code Queue}. */
    public EndpointRegistry endpointRegistry() {
        return registry;
    }

    /**
     * The registry's rows in memory (the ingest writer's fan-out reads them).
     *
     * @return the registry book
     */
    public RegistryBook registryBook() {
        return registryBook;
    }

    /**
     * Up to {@code limit} audit entries, newest first.
     *
     * @param limit how many entries at most
     * @return the entries
     */
    public List<AuditEntry> auditTrail(int limit) {
        return audit.newestFirst(limit);
    }

    /** See {@code Queue}. */
    public List<AuditEntry> auditTrail(long beforeSeq, int limit) {
        return audit.newestFirst(beforeSeq, limit);
    }

    @Override
    public AuditEntry recordAudit(AuditAction action, String tenantId, Map<String, Long> counts,
            Optional<String> actor) {
        return audit.append(action, tenantId, counts, actor);
    }

    @Override
    public DeliveryLedger deliveryLedger() {
        return ledger;
    }

    @Override
    public PolicyCache tenantPolicies() {
        return tenantPolicies;
    }

    @Override
    public EndpointSettings endpointSettings() {
        return config.endpoints();
    }

    @Override
    public EndpointLedger endpointLedger() {
        return endpointBook;
    }

    @Override
    public EndpointLimits endpointLimits() {
        return endpointLimits;
    }

    @Override
    public QueueFault queueFault() {
        return fault;
    }

    /**
     * Forgets the cached policy of {@code tenant}: the scheduler and the writer read it again.
     *
     * @param tenant the tenant whose policy changed
     */
    public void tenantPolicyChanged(String tenant) {
        tenantPolicies.invalidate(tenant);
    }

    /** Forgets every cached tenant policy. */
    public void tenantPoliciesChanged() {
        tenantPolicies.invalidateAll();
    }

    /** The configuration. */
    public QueueConfig config() {
        return config;
    }

    /** The store (for siblings in this module and tests). */
    public Store store() {
        return store;
    }

    /** Tenant ordinals. */
    public TenantOrdinals ordinals() {
        return ordinals;
    }

    /** The stripes consuming transitions hold. */
    public TenantStripes stripes() {
        return stripes;
    }

    /** The ledger, with its concrete type. */
    public StoreDeliveryLedger ledger() {
        return ledger;
    }

    /** Tenant purge. */
    public TenantPurge purge() {
        return purge;
    }

    /** Archive obligations. */
    public ArchiveObligations archive() {
        return archive;
    }

    /** Expansion of stored hooks. */
    public Expansion expansion() {
        return expansion;
    }

    /** The ingest writer. */
    public IngestWriter writer() {
        return writer;
    }

    /** The audit trail. */
    public AuditLog audit() {
        return audit;
    }

    /** Dedupe by idempotency key (the writer's). */
    public IdempotencyKeys idempotencyKeys() {
        return idempotencyKeys;
    }

    /** Reclaim of hooks nobody owes. */
    public HookReclaimer reclaimer() {
        return reclaimer;
    }

    /** See {@code Queue}. */
    public void addListener(QueueListener listener) {
        Objects.requireNonNull(listener, "listener");
        if (closed) {
            throw new QueueClosedException("queue is closed");
        }
        try {
            events.attach(listener);
        } catch (IllegalStateException closing) {
            throw new QueueClosedException("queue is closed");
        }
    }

    /**
     * The queue's events hand-off (listeners from {@link QueueConfig#listeners()}): the quarantine publishes through
     * it.
     */
    public EventHub events() {
        return events;
    }

    /**
     * Events dropped so far because a queue listener's hand-off was full.
     *
     * @return the count
     */
    public long eventsDropped() {
        return events.dropped();
    }

    /** The attempt history. */
    public AttemptHistory attemptHistory() {
        return history;
    }

    /** Housekeeping: reclaim, dedupe sweep, audit retention, attempt history retention. */
    public Housekeeping housekeeping() {
        return housekeeping;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            housekeeping.close();
            writer.close();
            receipts.close();
            events.close();
        } finally {
            store.close();
        }
    }
}
