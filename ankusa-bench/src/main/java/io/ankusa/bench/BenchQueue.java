package io.ankusa.bench;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.queue.Queue;
import io.ankusa.queue.deliveries.Deliveries;
import io.ankusa.queue.deliveries.DeliveryBatch;
import io.ankusa.queue.deliveries.DeliveryRow;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.TenantDirectory;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.MutableClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * A queue on one backend that the tick benches fill: {@value #ACTIVE_TENANTS} active tenants with
 * due rows, and any number of idle tenants whose only row is a retry scheduled a day ahead or a
 * dead letter. Rows are ingested through {@link Queue#ingest} (synced group commits of up to
 * {@value #BATCH_HOOKS} hooks) on a hand-moved clock that advances one second per
 * {@value #HOOKS_PER_SECOND} hooks ({@code -Dankusa.bench.hooksPerSecond}), so a backlog spans
 * seconds, and each active tenant has one active marker per second of it, as a real one would; idle tenants' rows are then moved on by the {@link Deliveries} op builders in large
 * unsynced batches (claim and retry or dead-letter in one batch, the ingest second's marker
 * deleted as the pipeline's cleanup would), followed by one synced commit.
 */
final class BenchQueue implements AutoCloseable {

    static final int ACTIVE_TENANTS = 8;
    static final int BATCH_HOOKS = 4_096;
    static final int HOOKS_PER_SECOND = 10_000;
    private static final int SPACING = Integer.getInteger("ankusa.bench.hooksPerSecond", HOOKS_PER_SECOND);
    static final long RETRY_AHEAD_MS = 86_400_000L;
    private static final int IN_FLIGHT = 32_768;
    private static final int CONVERT_CHUNK = 2_000;
    private static final byte[] PAYLOAD = new byte[64];

    private final Queue queue;
    private final MutableClock clock;
    private long hooks;
    private long idleTenants;
    private long dueRows;

    private BenchQueue(Queue queue, MutableClock clock) {
        this.queue = queue;
        this.clock = clock;
    }

    /** Opens a fresh queue in {@code directory}. */
    static BenchQueue open(String backend, Path directory, Map<String, String> storeSettings) {
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        QueueConfig.Builder config = QueueConfig.builder(directory).backend(backend).clock(clock)
                .batchMaxHooks(BATCH_HOOKS).ingestQueueCapacity(IN_FLIGHT * 2);
        storeSettings.forEach(config::storeSetting);
        return new BenchQueue(Queue.open(config.build()), clock);
    }

    Queue queue() {
        return queue;
    }

    DeliveryLedger ledger() {
        return LedgerSource.of(queue).deliveryLedger();
    }

    Store store() {
        return QueueEngine.of(queue).store();
    }

    /** The bench's "now": the hand-moved clock. */
    long now() {
        return clock.millis();
    }

    /** Due rows (first attempts) of the active tenants, all told. */
    long dueRows() {
        return dueRows;
    }

    /** Tenants with nothing due now. */
    long idleTenants() {
        return idleTenants;
    }

    /** Ingests {@code n} one-sink hooks spread round-robin over the active tenants. */
    void addDueRows(int n) {
        ingest(n, i -> hook("active-" + (i % ACTIVE_TENANTS)));
        dueRows += n;
    }

    /**
     * Adds {@code n} idle tenants with one hook each, then moves every such row on: even tenants'
     * to a retry due {@value #RETRY_AHEAD_MS} ms from now, odd tenants' to the DLQ.
     */
    void addIdleTenants(int n) {
        long first = idleTenants;
        List<Receipt> receipts = ingest(n, i -> hook("idle-" + (first + i)));
        idleTenants += n;
        DeliveryLedger ledger = ledger();
        long now = now();
        DeliveryBatch batch = new DeliveryBatch();
        int inBatch = 0;
        for (Receipt receipt : receipts) {
            long ord = LedgerSource.of(queue).tenantDirectory().ord(receipt.tenantId()).orElseThrow();
            DueRow due = ledger.firstDue(ord).orElseThrow();
            InflightRow inflight = Deliveries.claimOps(batch, due);
            long tenant = Long.parseLong(receipt.tenantId().substring("idle-".length()));
            if (tenant % 2 == 0) {
                Deliveries.retryOps(batch, inflight, new DeliveryRow(due.size(), 1, now, "HTTP 503"),
                        now + RETRY_AHEAD_MS);
            } else {
                Deliveries.deadOps(batch, inflight, new DeliveryRow(due.size(), 1, now, "HTTP 410"), now, "bench",
                        receipt.hookId());
            }
            Deliveries.deleteMarkerOps(batch, ord, due.at() / 1000);
            if (++inBatch == CONVERT_CHUNK) {
                batch.commit(store(), Durability.ASYNC);
                batch = new DeliveryBatch();
                inBatch = 0;
            }
        }
        if (!batch.isEmpty()) {
            batch.commit(store(), Durability.ASYNC);
        }
        store().commit(new WriteBatch(), Durability.SYNC);
    }

    private Hook hook(String tenant) {
        return Hook.builder().id("b" + hooks++).sourceId("bench").tenantId(tenant).payload(PAYLOAD).sinks(0).build();
    }

    private List<Receipt> ingest(int n, IntFunction<Hook> hooks) {
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<CompletableFuture<Receipt>> futures = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (i > 0 && i % SPACING == 0) {
                clock.advance(1_000);
            }
            inFlight.acquireUninterruptibly();
            CompletableFuture<Receipt> f = queue.ingest(hooks.apply(i));
            f.whenComplete((r, e) -> {
                inFlight.release();
                if (e != null) {
                    failure.compareAndSet(null, e);
                }
            });
            futures.add(f);
        }
        try {
            CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new IllegalStateException("ingest failed", failure.get() != null ? failure.get() : e);
        }
        clock.advance(1_000);
        return futures.stream().map(CompletableFuture::join).toList();
    }

    /**
     * Checks the store before a measurement: counters equal a fold of the index, and the active
     * index names exactly the active tenants. Returns what is wrong, empty if nothing.
     */
    List<String> verify(String cell) {
        List<String> problems = new ArrayList<>();
        try {
            IndexFold.of(store()).assertCountersMatch(store());
        } catch (AssertionError e) {
            problems.add(cell + ": counters differ from a fold of the index: " + e.getMessage());
        }
        Set<Long> active = new TreeSet<>();
        for (ActiveTenant marker : ledger().activeTenants(now(), 4_096)) {
            active.add(marker.ord());
        }
        if (active.size() != ACTIVE_TENANTS) {
            problems.add(cell + ": " + active.size() + " tenants have due work, expected " + ACTIVE_TENANTS);
        }
        if (queue.stats().pending() != dueRows) {
            problems.add(cell + ": pending " + queue.stats().pending() + ", expected " + dueRows);
        }
        return problems;
    }

    @Override
    public void close() {
        queue.close();
    }
}
