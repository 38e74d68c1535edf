package io.ankusa.queue.engine;

import io.ankusa.api.DeadStats;
import io.ankusa.api.Hook;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantStats;
import io.ankusa.keys.Ordinals;
import io.ankusa.queue.Queue;
import io.ankusa.queue.counters.Counters;
import io.ankusa.queue.dedupe.IdempotencyKeys;
import io.ankusa.queue.deliveries.ArchiveObligations;
import io.ankusa.queue.deliveries.Expansion;
import io.ankusa.queue.deliveries.StoreDeliveryLedger;
import io.ankusa.queue.deliveries.TenantPurge;
import io.ankusa.queue.format.FormatGuard;
import io.ankusa.queue.format.StoreLayout;
import io.ankusa.queue.ingest.IngestWriter;
import io.ankusa.queue.ingest.LastSeq;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.locks.TenantStripes;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.queue.tenants.TenantOrdinals;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
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
        this.writer = IngestWriter.start(store, ordinals, config.clock(), new IngestWriter.Limits(config.batchMaxHooks(),
                config.batchMaxBytes(), config.ingestQueueCapacity(), config.archive()),
                new IdempotencyKeys(store, config.dedupeWindow().toMillis()), LastSeq.recover(store));
    }

    /** Opens a queue (see {@link Queue#open}), with no migration registered. */
    public static QueueEngine open(QueueConfig config) {
        return open(config, Migrations.NONE);
    }

    /** Opens a queue, running {@code migrations} on an older store. */
    public static QueueEngine open(QueueConfig config, Migrations migrations) {
        Objects.requireNonNull(config, "config");
        StoreOptions options = StoreOptions.create(config.directory(), StoreLayout.families());
        for (var setting : config.storeSettings().entrySet()) {
            options = options.with(setting.getKey(), setting.getValue());
        }
        Store store = Stores.open(config.backend(), options);
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

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            writer.close();
        } finally {
            store.close();
        }
    }
}
