package io.ankusa.queue.engine;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.DeadStats;
import io.ankusa.api.Hook;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantStats;
import io.ankusa.keys.Ordinals;
import io.ankusa.queue.Queue;
import io.ankusa.queue.audit.AuditLog;
import io.ankusa.queue.counters.Counters;
import io.ankusa.queue.dedupe.IdempotencyKeys;
import io.ankusa.queue.deliveries.ArchiveObligations;
import io.ankusa.queue.deliveries.Expansion;
import io.ankusa.queue.deliveries.StoreDeliveryLedger;
import io.ankusa.queue.deliveries.TenantPurge;
import io.ankusa.queue.dlq.DeadLetters;
import io.ankusa.queue.format.FormatGuard;
import io.ankusa.queue.format.StoreLayout;
import io.ankusa.queue.housekeeping.Housekeeping;
import io.ankusa.queue.ingest.IngestWriter;
import io.ankusa.queue.ingest.LastSeq;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.locks.TenantStripes;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.queue.purge.AuditedPurge;
import io.ankusa.queue.reclaim.HookReclaimer;
import io.ankusa.queue.tenants.TenantOrdinals;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue over one store: wires the format guard, tenant ordinals, stripes, the ledger, the
 * maintenance transitions and the ingest writer, and owns their lifecycle. Siblings inside the
 * queue module (admin, archive, migration) reach the parts through {@link #of(Queue)}.
 */
public final class QueueEngine implements Queue, LedgerSource {

    private static final Logger LOG = LoggerFactory.getLogger(QueueEngine.class);

    private final QueueConfig config;
    private final Store store;
    private final TenantOrdinals ordinals;
    private final TenantStripes stripes;
    private final StoreDeliveryLedger ledger;
    private final TenantPurge purge;
    private final ArchiveObligations archive;
    private final Expansion expansion;
    private final IngestWriter writer;
    private final AuditLog audit;
    private final IdempotencyKeys idempotencyKeys;
    private final HookReclaimer reclaimer;
    private final Housekeeping housekeeping;
    private final DeadLetters deadLetters;
    private final AuditedPurge auditedPurge;
    private volatile boolean closed;

    private QueueEngine(QueueConfig config, Store store) {
        this.config = config;
        this.store = store;
        this.ordinals = TenantOrdinals.load(store, config.tenantsMax());
        this.stripes = new TenantStripes(TenantStripes.DEFAULT_STRIPES);
        this.ledger = new StoreDeliveryLedger(store, stripes, config.clock());
        this.purge = new TenantPurge(store, stripes);
        this.archive = new ArchiveObligations(store, stripes);
        this.expansion = new Expansion(store, stripes, ordinals::ord, config.clock());
        int recovered = ledger.recoverInflight();
        if (recovered > 0) {
            LOG.info("moved {} inflight deliveries left by the last run back to due", recovered);
        }
        this.audit = AuditLog.open(store, config.clock());
        this.idempotencyKeys = new IdempotencyKeys(store, config.dedupeWindow().toMillis());
        this.reclaimer = new HookReclaimer(store, stripes, ordinals);
        this.deadLetters = new DeadLetters(store, ordinals, ledger);
        this.auditedPurge = new AuditedPurge(ordinals, purge, audit);
        this.writer = IngestWriter.start(store, ordinals, config.clock(), new IngestWriter.Limits(config.batchMaxHooks(),
                config.batchMaxBytes(), config.ingestQueueCapacity(), config.archive()), idempotencyKeys,
                LastSeq.recover(store));
        this.housekeeping = new Housekeeping(reclaimer, writer, idempotencyKeys, audit, config.clock(), config.auditRetention());
        if (!config.housekeepingInterval().isZero()) {
            housekeeping.start(config.housekeepingInterval());
        }
    }

    /** Opens a queue (see {@link Queue#open}), running the migrations this release ships on an older store. */
    public static QueueEngine open(QueueConfig config) {
        return open(config, Migrations.standard());
    }

    /** Opens a queue, running {@code migrations} on an older store. */
    public static QueueEngine open(QueueConfig config, Migrations migrations) {
        return open(config, migrations, UnaryOperator.identity());
    }

    /**
     * Opens a queue whose store, once opened, is wrapped by {@code wrap} before the queue uses it
     * (tests: a store that records or fails calls). Closing the queue closes the wrapper.
     */
    public static QueueEngine open(QueueConfig config, Migrations migrations, UnaryOperator<Store> wrap) {
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
            return new QueueEngine(config, store);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** The engine behind {@code queue}. */
    public static QueueEngine of(Queue queue) {
        if (queue instanceof QueueEngine engine) {
            return engine;
        }
        throw new IllegalArgumentException("not an Ankusa queue engine: " + queue.getClass().getName());
    }

    @Override
    public CompletableFuture<Receipt> ingest(Hook hook) {
        Objects.requireNonNull(hook, "hook");
        if (hook.payloadLength() > config.payloadMaxBytes()) {
            return CompletableFuture.failedFuture(new InvalidHookException(InvalidHookException.Reason.PAYLOAD_TOO_LARGE,
                    "payload of hook '" + hook.id() + "' is " + hook.payloadLength() + " bytes; the limit is "
                            + config.payloadMaxBytes()));
        }
        return writer.submit(hook);
    }

    @Override
    public TenantStats pendingForTenant(String tenant) {
        OptionalLong ord = ordinals.ord(tenant);
        return ord.isEmpty() ? TenantStats.EMPTY : Counters.read(store, ord.getAsLong()).tenantStats();
    }

    @Override
    public DeadStats deadForTenant(String tenant) {
        OptionalLong ord = ordinals.ord(tenant);
        return ord.isEmpty() ? DeadStats.EMPTY : Counters.read(store, ord.getAsLong()).deadStats();
    }

    @Override
    public QueueStats stats() {
        return Counters.read(store, Ordinals.AGGREGATE).queueStats();
    }

    @Override
    public long tenantCount() {
        return ordinals.tenantCount();
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
    public Optional<Duration> oldestDueAge() {
        OptionalLong at = ledger.oldestDueAt();
        if (at.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofMillis(Math.max(0, config.clock().millis() - at.getAsLong())));
    }

    @Override
    public void checkpoint(Path target) {
        store.checkpoint(Objects.requireNonNull(target, "target"));
    }

    @Override
    public DeadLetterPage deadLetters(DeadLetterQuery query) {
        return deadLetters.page(Objects.requireNonNull(query, "query"));
    }

    @Override
    public PurgeResult purgeTenant(String tenant, Set<PurgeKind> kinds) {
        return auditedPurge.purge(tenant, kinds);
    }

    @Override
    public List<AuditEntry> auditTrail(int limit) {
        return audit.newestFirst(limit);
    }

    @Override
    public List<AuditEntry> auditTrail(long beforeSeq, int limit) {
        return audit.newestFirst(beforeSeq, limit);
    }

    @Override
    public AuditEntry recordAudit(AuditAction action, String tenantId, Map<String, Long> counts) {
        return audit.append(action, tenantId, counts);
    }

    @Override
    public DeliveryLedger deliveryLedger() {
        return ledger;
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

    /** Housekeeping: reclaim, dedupe sweep, audit retention. */
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
        } finally {
            store.close();
        }
    }
}
