package io.ankusa.tests.queue;

import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.queue.ledger.QueueClock;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.store.Store;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * A queue opened the way tests need it (chosen migrations, a wrapped store): the engine with the
 * {@link Queue} interface added, exactly as the API's own package-private {@code EngineQueue} does.
 */
public final class TestQueue extends QueueEngine implements Queue {

    private TestQueue(QueueConfig config, Store store) {
        super(config, store);
    }

    private TestQueue(QueueConfig config, Store store, LongSupplier monotonicNanos) {
        super(config, store, monotonicNanos);
    }

    private TestQueue(QueueConfig config, Store store, QueueClock clock) {
        super(config, store, clock);
    }

    /** Opens a queue running {@code migrations} on an older store, over its store wrapped by {@code wrap}. */
    public static TestQueue open(QueueConfig config, Migrations migrations, UnaryOperator<Store> wrap) {
        return QueueEngine.open(config, migrations, wrap, TestQueue::new);
    }

    /**
     * Opens a queue over its store wrapped by {@code wrap} whose queue clock is the configured
     * clock as it is, back steps included ({@link QueueClock#wallOnly}): for tests that stamp the
     * past on purpose, as a writer that read its clock earlier does.
     */
    public static TestQueue openOnWall(QueueConfig config, UnaryOperator<Store> wrap) {
        return QueueEngine.open(config, Migrations.NONE, wrap,
                (c, store) -> new TestQueue(c, store, QueueClock.wallOnly(c.clock())));
    }

    /**
     * Opens a queue over its store wrapped by {@code wrap}, whose clock takes {@code monotonicNanos}
     * as its monotonic source, so a move of the configured wall clock that this source does not
     * share is a clock step.
     */
    public static TestQueue open(QueueConfig config, UnaryOperator<Store> wrap, LongSupplier monotonicNanos) {
        return QueueEngine.open(config, Migrations.NONE, wrap, (c, store) -> new TestQueue(c, store, monotonicNanos));
    }
}
