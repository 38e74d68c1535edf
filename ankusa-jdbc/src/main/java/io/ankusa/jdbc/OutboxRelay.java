package io.ankusa.jdbc;

import io.ankusa.queue.Queue;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Moves committed outbox rows into a {@link Queue}, exactly once: each row is ingested with
 * {@code IntakePosition(<table>, <row id>)}, so the queue writes the row's id in the same synced
 * batch as its hook, and rows at or below the queue's position for the table are known to be in the
 * store whatever happened to the relay before its delete. docs/outbox.md states the guarantees,
 * the gap rule and the lock; {@code RelayLoop} holds the reasoning.
 *
 * <p>One relay relays a table at a time: it holds a session lock on the table (a PostgreSQL
 * advisory lock, a MySQL named lock) on its own connection, and every statement of its passes runs
 * on that connection, so a relay whose session ends finds out at its next statement and stops
 * ingesting. Other relays on the same table wait for the lock; one that takes it waits
 * {@link Builder#takeoverDelay} before its first read, and a relay does not hand rows to the queue
 * later than half that delay after a statement last succeeded on its session: a relay that lost
 * the lock has stopped ingesting before another starts.
 *
 * <pre>{@code
 * try (OutboxRelay relay = OutboxRelay.builder(dataSource, queue, OutboxDialect.POSTGRESQL).build().start()) {
 *     ... // the application runs; rows added by AnkusaOutbox.add are relayed as they commit
 * }
 * }</pre>
 *
 * <p>Runs on one thread of its own, named {@code ankusa-outbox-relay-<table>}, not a daemon, from
 * {@link #start()} to {@link #close()}. The relay neither opens nor closes the queue. Thread-safe.
 */
public final class OutboxRelay implements AutoCloseable {

    private final RelayLoop loop;

    private OutboxRelay(Builder builder) {
        this.loop = new RelayLoop(builder.dataSource, builder.queue, builder.dialect, builder.table,
                builder.pollInterval, builder.gapWait, builder.takeoverDelay, builder.batchSize,
                builder.ingestTimeout, builder.listen);
    }

    /**
     * A builder for a relay from the outbox table in {@code dataSource}'s database into {@code queue}.
     *
     * @param dataSource where the relay takes its connection from (one at a time, held while it
     *        relays); it must see the rows {@link AnkusaOutbox#add} commits
     * @param queue      the queue to ingest into; its intake position for the table is the relay's progress
     * @param dialect    the database's SQL dialect
     * @return a builder with the defaults documented on each setter
     */
    public static Builder builder(DataSource dataSource, Queue queue, OutboxDialect dialect) {
        return new Builder(dataSource, queue, dialect);
    }

    /**
     * Starts the relay's thread: it takes the table's lock when it can, then relays.
     *
     * @return this relay
     * @throws IllegalStateException when the relay was started before
     */
    public OutboxRelay start() {
        loop.start();
        return this;
    }

    /** {@return what the relay has done since it was started, and whether it holds the lock} */
    public RelayStats stats() {
        return loop.stats();
    }

    /**
     * Why the relay stopped for good: the queue was closed or failed under it. Empty while it runs
     * or after a plain {@link #close()}.
     *
     * @return the queue's exception that stopped the relay, if any
     */
    public Optional<Throwable> failure() {
        return loop.failure();
    }

    /**
     * Stops the relay: it finishes the pass under way (waits for its ingests and runs its delete),
     * releases the lock, closes its connection and ends its thread. Idempotent.
     */
    @Override
    public void close() {
        loop.close();
    }

    /** Builds an {@link OutboxRelay}. Not thread-safe. */
    public static final class Builder {

        private final DataSource dataSource;
        private final Queue queue;
        private final OutboxDialect dialect;
        private String table = AnkusaOutbox.DEFAULT_TABLE;
        private Duration pollInterval = Duration.ofMillis(500);
        private Duration gapWait = Duration.ofSeconds(10);
        private Duration takeoverDelay = Duration.ofSeconds(2);
        private int batchSize = 500;
        private Duration ingestTimeout = Duration.ofSeconds(5);
        private boolean listen = true;

        private Builder(DataSource dataSource, Queue queue, OutboxDialect dialect) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            this.queue = Objects.requireNonNull(queue, "queue");
            this.dialect = Objects.requireNonNull(dialect, "dialect");
        }

        /**
         * Sets the outbox table's name ({@value AnkusaOutbox#DEFAULT_TABLE} by default), as given to
         * {@link AnkusaOutbox.Builder#table}; it is also the queue's intake source for the rows.
         *
         * @param table a lower-case SQL identifier
         * @return this builder
         * @throws IllegalArgumentException when the name is not such an identifier
         */
        public Builder table(String table) {
            this.table = OutboxRow.checkTable(Objects.requireNonNull(table, "table"));
            return this;
        }

        /**
         * Sets how long an idle relay waits before it reads the table again (500 ms by default); on
         * PostgreSQL with pgjdbc a notification from a committed {@code add} wakes it sooner. Also
         * how often a waiting relay tries the lock.
         *
         * @param pollInterval 1 ms or more
         * @return this builder
         */
        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = positive(pollInterval, "pollInterval");
            return this;
        }

        /**
         * Sets how long the relay waits for a missing id before it passes it (10 s by default). Ids
         * are taken when a row is inserted and become visible when its transaction commits, so a
         * later id can be seen first; an id whose transaction rolled back never appears. A row
         * that commits later than this after a higher id was seen goes to the refused table as
         * {@code late_commit}, not into the queue. Set it above the longest time a transaction of
         * the application stays open after its {@code add}.
         *
         * @param gapWait 0 or more
         * @return this builder
         */
        public Builder gapWait(Duration gapWait) {
            this.gapWait = notNegative(gapWait, "gapWait");
            return this;
        }

        /**
         * Sets how long a relay that took the lock waits before its first read (2 s by default), and
         * so, halved, how long after its last successful statement a relay still hands rows to the
         * queue. Keep it above the queue's commit time and the longest pause of the JVM.
         *
         * @param takeoverDelay 0 or more
         * @return this builder
         */
        public Builder takeoverDelay(Duration takeoverDelay) {
            this.takeoverDelay = notNegative(takeoverDelay, "takeoverDelay");
            return this;
        }

        /**
         * Sets the most rows one pass reads, ingests and deletes (500 by default).
         *
         * @param batchSize 1 or more
         * @return this builder
         */
        public Builder batchSize(int batchSize) {
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be >= 1: " + batchSize);
            }
            this.batchSize = batchSize;
            return this;
        }

        /**
         * Sets how long the relay waits for room in the queue's ingest queue before a row's ingest
         * fails with back-pressure and is tried again (5 s by default).
         *
         * @param ingestTimeout 0 or more
         * @return this builder
         */
        public Builder ingestTimeout(Duration ingestTimeout) {
            this.ingestTimeout = notNegative(ingestTimeout, "ingestTimeout");
            return this;
        }

        /**
         * Whether the relay {@code LISTEN}s on the table's channel on PostgreSQL (on by default;
         * needs pgjdbc). Off, or on MySQL, it reads at its polling interval.
         *
         * @param listen true to wake on notifications
         * @return this builder
         */
        public Builder listen(boolean listen) {
            this.listen = listen;
            return this;
        }

        /** {@return the relay, not started} */
        public OutboxRelay build() {
            return new OutboxRelay(this);
        }

        private static Duration positive(Duration value, String name) {
            if (Objects.requireNonNull(value, name).compareTo(Duration.ofMillis(1)) < 0) {
                throw new IllegalArgumentException(name + " must be at least 1 ms: " + value);
            }
            return value;
        }

        private static Duration notNegative(Duration value, String name) {
            if (Objects.requireNonNull(value, name).isNegative()) {
                throw new IllegalArgumentException(name + " must not be negative: " + value);
            }
            return value;
        }
    }
}
