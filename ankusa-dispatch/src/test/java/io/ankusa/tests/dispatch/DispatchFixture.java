package io.ankusa.tests.dispatch;

import io.ankusa.api.EndpointSettings;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.queue.Queue;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.store.Store;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.MutableClock;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.TestQueue;
import io.ankusa.tests.support.RecordingStore;
import io.ankusa.tests.support.ScanCountingStore;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * A queue on one backend in a test directory, opened over a {@link RecordingStore} (every store
 * call) over a {@link ScanCountingStore} (entries taken per scan), with a hand-moved clock shared
 * by the queue and the pipelines built here.
 */
public final class DispatchFixture implements AutoCloseable {

    private final QueueConfig config;
    private final MutableClock clock;
    private final boolean onWall;
    private final UnaryOperator<Store> inner;
    private TestQueue queue;
    private ScanCountingStore scans;

    private DispatchFixture(QueueConfig config, MutableClock clock, boolean onWall, UnaryOperator<Store> inner) {
        this.config = config;
        this.clock = clock;
        this.onWall = onWall;
        this.inner = inner;
        this.queue = openQueue();
    }

    private TestQueue openQueue() {
        UnaryOperator<Store> wrap = store -> {
            scans = new ScanCountingStore(inner.apply(store));
            return new RecordingStore(scans);
        };
        return onWall ? TestQueue.openOnWall(config, wrap) : TestQueue.open(config, Migrations.NONE, wrap);
    }

    /**
     * A fixture on {@code backend} in {@code directory} whose queue clock is the hand-moved clock as
     * it is, back steps included ({@code QueueClock.wallOnly}): for tests that stamp a past second on
     * purpose, as a writer that read its clock before a cleanup does.
     */
    public static DispatchFixture onWallClock(String backend, Path directory) {
        return onWallClock(backend, directory, UnaryOperator.identity());
    }

    /** {@link #onWallClock(String, Path)} over the store {@code inner} makes of the backend's (a test's seam). */
    public static DispatchFixture onWallClock(String backend, Path directory, UnaryOperator<Store> inner) {
        MutableClock clock = new MutableClock(QueueUnderTest.EPOCH);
        return new DispatchFixture(QueueConfig.builder(directory).backend(backend).clock(clock).build(), clock, true,
                inner);
    }

    /** A fixture on {@code backend} in {@code directory}. */
    public static DispatchFixture open(String backend, Path directory) {
        return open(backend, directory, b -> b);
    }

    /**
     * A fixture on {@code backend} in {@code directory}, with the queue's defaults changed by {@code tweak}.
     * Its endpoints have no concurrency limit unless {@code tweak} sets one: the dispatch tests send
     * many rows to one in-process endpoint per tenant and are about the tenants' shares, not the
     * endpoint's limit ({@code EndpointStateTest} tests the limit).
     */
    public static DispatchFixture open(String backend, Path directory, UnaryOperator<QueueConfig.Builder> tweak) {
        MutableClock clock = new MutableClock(QueueUnderTest.EPOCH);
        QueueConfig.Builder builder = QueueConfig.builder(directory).backend(backend).clock(clock)
                .endpoints(EndpointSettings.DEFAULTS.withMaxConcurrency(Integer.MAX_VALUE));
        return new DispatchFixture(tweak.apply(builder).build(), clock, false, UnaryOperator.identity());
    }

    public Queue queue() {
        return queue;
    }

    public DeliveryLedger ledger() {
        return LedgerSource.of(queue).deliveryLedger();
    }

    public Store store() {
        return queue.store();
    }

    public RecordingStore recorder() {
        return (RecordingStore) queue.store();
    }

    public ScanCountingStore scans() {
        return scans;
    }

    public MutableClock clock() {
        return clock;
    }

    public long now() {
        return clock.millis();
    }

    public long ord(String tenant) {
        return queue.ord(tenant).orElseThrow(() -> new AssertionError("no tenant " + tenant));
    }

    /** A pipeline (on the queue's clock, the fixture's), with the defaults changed by {@code tweak}; not started. */
    public Pipeline pipeline(Sink sink, UnaryOperator<Pipeline.Builder> tweak) {
        return tweak.apply(Pipeline.builder(queue, sink)).manual();
    }

    public Receipt ingest(Hook hook) {
        return QueueUnderTest.await(queue.ingest(hook));
    }

    /** Ingests a hook with one sink per number in {@code sinks}, for {@code tenant}. */
    public Receipt ingest(String id, String tenant, int... sinks) {
        return ingest(QueueUnderTest.hook(id, tenant, sinks));
    }

    /** Runs one tick and waits for its settles. */
    public static TickReport await(CompletionStage<TickReport> tick) {
        try {
            return tick.toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("the tick's settles failed", e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError(e);
        }
    }

    /** The fold of the store's index families. */
    public IndexFold fold() {
        return IndexFold.of(store());
    }

    /** Asserts every counter equals the fold and every due row has its marker. */
    public void assertConsistent() {
        IndexFold fold = fold();
        fold.assertCountersMatch(store());
        fold.assertEveryDueRowHasAMarker();
    }

    /** Closes and reopens the queue on the same directory (inflight rows come back as due). */
    public void reopen() {
        queue.close();
        queue = openQueue();
    }

    @Override
    public void close() {
        queue.close();
    }
}
