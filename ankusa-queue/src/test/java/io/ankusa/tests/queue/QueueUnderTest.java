package io.ankusa.tests.queue;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.queue.Queue;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.queue.ledger.AuditRecorder;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.TenantDirectory;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * A queue opened on one backend in a test directory, with a hand-moved clock and no housekeeping
 * thread (tests run housekeeping themselves); can be closed and reopened, optionally over a
 * wrapped store.
 */
public final class QueueUnderTest implements AutoCloseable {

    /** Where the test clock starts: 2026-01-01T00:00:00Z. */
    public static final long EPOCH = 1_767_225_600_000L;

    private final QueueConfig config;
    private final MutableClock clock;
    private final UnaryOperator<Store> wrap;
    private Queue queue;

    private QueueUnderTest(QueueConfig config, MutableClock clock, UnaryOperator<Store> wrap) {
        this.config = config;
        this.clock = clock;
        this.wrap = wrap;
        this.queue = openQueue();
    }

    private Queue openQueue() {
        return wrap == null ? Queue.open(config) : TestQueue.open(config, Migrations.NONE, wrap);
    }

    /** Opens a queue with the defaults. */
    public static QueueUnderTest open(String backend, Path directory) {
        return open(backend, directory, b -> b);
    }

    /** Opens a queue with the defaults changed by {@code tweak}. */
    public static QueueUnderTest open(String backend, Path directory, UnaryOperator<QueueConfig.Builder> tweak) {
        return open(backend, directory, tweak, null);
    }

    /** Opens a queue with the defaults changed by {@code tweak}, over its store wrapped by {@code wrap} (at every open). */
    public static QueueUnderTest open(String backend, Path directory, UnaryOperator<QueueConfig.Builder> tweak,
            UnaryOperator<Store> wrap) {
        MutableClock clock = new MutableClock(EPOCH);
        QueueConfig.Builder builder = QueueConfig.builder(directory).backend(backend).clock(clock)
                .housekeepingInterval(Duration.ZERO);
        return new QueueUnderTest(tweak.apply(builder).build(), clock, wrap);
    }

    /** The queue. */
    public Queue queue() {
        return queue;
    }

    /** Its engine. */
    public QueueEngine engine() {
        return QueueEngine.of(queue);
    }

    /** Its delivery ledger. */
    public DeliveryLedger ledger() {
        return LedgerSource.of(queue).deliveryLedger();
    }

    /** A tenant's storage ordinal, if it has one. */
    public OptionalLong ord(String tenant) {
        return LedgerSource.of(queue).tenantDirectory().ord(tenant);
    }

    /** The tenant id of a storage ordinal, if allocated and not erased. */
    public Optional<String> name(long ord) {
        return LedgerSource.of(queue).tenantDirectory().name(ord);
    }

    /** Records an operator action in the audit trail, as the replayer does. */
    public AuditEntry recordAudit(AuditAction action, String tenantId, Map<String, Long> counts) {
        return LedgerSource.of(queue).auditRecorder().recordAudit(action, tenantId, counts);
    }

    /** Its store. */
    public Store store() {
        return engine().store();
    }

    /**
     * Overwrites hook {@code seq}'s stored bytes through the SPI with bytes of the same length that
     * do not decode (a claim then quarantines its rows); returns the original bytes.
     */
    public byte[] damageHook(long seq) {
        byte[] key = new HookKey(seq).encode();
        byte[] stored = store().get(ColumnFamilies.HOOKS, key).orElseThrow();
        byte[] garbage = new byte[stored.length];
        Arrays.fill(garbage, (byte) 0xFF);
        store().commit(new WriteBatch().put(ColumnFamilies.HOOKS, key, garbage),
                Durability.SYNC);
        return stored;
    }

    /** The clock. */
    public MutableClock clock() {
        return clock;
    }

    /** The configuration. */
    public QueueConfig config() {
        return config;
    }

    /** Ingests and waits for the receipt (rethrowing the refusal unwrapped). */
    public Receipt ingest(Hook hook) {
        return await(queue.ingest(hook));
    }

    /** Waits for a future, unwrapping its failure. */
    public static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Closes and reopens the queue on the same directory (inflight rows come back as due). */
    public void reopen() {
        queue.close();
        queue = openQueue();
    }

    /** A hook with {@code sinks} sinks, for {@code tenant} (null for none). */
    public static Hook hook(String id, String tenant, int... sinks) {
        Hook.Builder b = Hook.builder().id(id).sourceId("src").payload("{\"id\":\"" + id + "\"}").sinks(sinks);
        if (tenant != null) {
            b.tenantId(tenant);
        }
        return b.build();
    }

    @Override
    public void close() {
        queue.close();
    }
}
