package io.ankusa.jdbc;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * The write side of the outbox: {@link #add(Connection, Hook)} inserts a hook as one row of the
 * outbox table on the application's own connection, so the row commits or rolls back with the
 * business rows of the same transaction. An {@link OutboxRelay} moves committed rows into the queue.
 *
 * <p>The input rules are the queue's: a {@link Hook} is valid by construction, and {@code add}
 * refuses a payload over the queue's {@code payloadMaxBytes} with the same
 * {@link io.ankusa.api.InvalidHookException} {@code Queue.ingest} would throw, before anything is
 * written: a row that the queue could never take is refused inside the transaction, where the
 * application can still decide what to do. What the queue can refuse only when the row arrives (a
 * new tenant past {@code tenants.max}, a tenant being erased) goes to the refused table then.
 *
 * <pre>{@code
 * AnkusaOutbox outbox = AnkusaOutbox.builder(OutboxDialect.POSTGRESQL).build();
 * try (Connection c = dataSource.getConnection()) {
 *     c.setAutoCommit(false);
 *     insertOrder(c, order);
 *     outbox.add(c, hookFor(order));
 *     c.commit();
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe; it holds no connection.
 */
public final class AnkusaOutbox {

    /** The outbox table's name unless {@link Builder#table} sets another. */
    public static final String DEFAULT_TABLE = "ankusa_outbox";

    private final OutboxDialect dialect;
    private final String table;
    private final int payloadMaxBytes;
    private final boolean notify;
    private final String insert;

    private AnkusaOutbox(Builder builder) {
        this.dialect = builder.dialect;
        this.table = builder.table;
        this.payloadMaxBytes = builder.payloadMaxBytes;
        this.notify = builder.notify && dialect == OutboxDialect.POSTGRESQL;
        this.insert = "INSERT INTO " + table
                + " (tenant_id, hook_id, source_id, event_type, idempotency_key, sinks, headers, payload)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    }

    /**
     * A builder for an outbox in a database of {@code dialect}.
     *
     * @param dialect the database's SQL dialect
     * @return a builder with the default table ({@value #DEFAULT_TABLE}) and payload limit (1 MiB)
     */
    public static Builder builder(OutboxDialect dialect) {
        return new Builder(dialect);
    }

    /**
     * Inserts {@code hook} as one outbox row on {@code connection}, in whatever transaction the
     * connection is in (with auto-commit on, the row commits by itself). Leaves the connection's
     * transaction open: the caller commits or rolls back. On PostgreSQL it also sends a
     * notification on the table's channel, which the database delivers to a listening relay only
     * if and when the transaction commits.
     *
     * @param connection the application's connection, in the transaction the hook belongs to
     * @param hook       the hook to relay once the transaction commits
     * @return the row's id: its place in the relay's order and, once relayed, the queue's intake
     *         position for the table
     * @throws io.ankusa.api.InvalidHookException ({@code payload_too_large}) when the payload is
     *         over the queue's limit; nothing is written
     * @throws OutboxException ({@link OutboxException.Reason#DATABASE}) when the insert fails
     */
    public long add(Connection connection, Hook hook) {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(hook, "hook");
        QueueConfig.checkPayload(hook, payloadMaxBytes);
        try {
            long id;
            try (PreparedStatement statement = connection.prepareStatement(insert, new String[] {"id"})) {
                OutboxRow.bind(statement, hook);
                statement.executeUpdate();
                try (ResultSet keys = statement.getGeneratedKeys()) {
                    if (!keys.next()) {
                        throw new SQLException("the insert returned no generated id");
                    }
                    id = keys.getLong(1);
                }
            }
            if (notify) {
                try (PreparedStatement statement = connection.prepareStatement("SELECT pg_notify(?, '')")) {
                    statement.setString(1, table);
                    statement.execute();
                }
            }
            return id;
        } catch (SQLException e) {
            throw new OutboxException(OutboxException.Reason.DATABASE,
                    "could not insert hook '" + hook.id() + "' into " + table + ": " + e.getMessage(), e);
        }
    }

    /**
     * Creates the outbox's tables ({@code table}, {@code table_refused}, {@code table_gaps}) if they
     * do not exist, from the dialect's schema resource; for applications that let a library create
     * its tables. Applications that manage their schema with migrations apply the same resource
     * ({@code io/ankusa/jdbc/postgresql.sql} or {@code mysql.sql}, {@code ${table}} replaced).
     *
     * @param connection a connection allowed to create tables; each statement runs and commits
     *        on it (auto-commit is switched on while they run and restored after)
     * @throws OutboxException ({@link OutboxException.Reason#DATABASE}) when a statement fails
     */
    public void createTables(Connection connection) {
        try {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                for (String sql : dialect.schema(table)) {
                    statement.execute(sql);
                }
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new OutboxException(OutboxException.Reason.DATABASE,
                    "could not create the outbox tables " + table + ": " + e.getMessage(), e);
        }
    }

    /** {@return the outbox table's name; the relay's intake source in the queue is the same name} */
    public String table() {
        return table;
    }

    /** {@return the database's SQL dialect} */
    public OutboxDialect dialect() {
        return dialect;
    }

    /** {@return the largest payload {@link #add} accepts, the queue's {@code payloadMaxBytes}} */
    public int payloadMaxBytes() {
        return payloadMaxBytes;
    }

    /** Builds an {@link AnkusaOutbox}. Not thread-safe. */
    public static final class Builder {

        private final OutboxDialect dialect;
        private String table = DEFAULT_TABLE;
        private int payloadMaxBytes = 1 << 20;
        private boolean notify = true;

        private Builder(OutboxDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
        }

        /**
         * Sets the outbox table's name; the refused and gap tables are named after it.
         *
         * @param table a lower-case SQL identifier, {@code [a-z_][a-z0-9_]*}, at most 51 characters
         * @return this builder
         * @throws IllegalArgumentException when the name is not such an identifier
         */
        public Builder table(String table) {
            this.table = OutboxRow.checkTable(Objects.requireNonNull(table, "table"));
            return this;
        }

        /**
         * Sets the payload limit: the {@code payloadMaxBytes} of the queue the relay ingests into.
         *
         * @param payloadMaxBytes the largest payload accepted, 0 or more
         * @return this builder
         * @throws IllegalArgumentException when the limit is negative
         */
        public Builder payloadMaxBytes(int payloadMaxBytes) {
            if (payloadMaxBytes < 0) {
                throw new IllegalArgumentException("payloadMaxBytes must be >= 0: " + payloadMaxBytes);
            }
            this.payloadMaxBytes = payloadMaxBytes;
            return this;
        }

        /**
         * Whether {@code add} notifies a listening relay on PostgreSQL (on by default; ignored on
         * MySQL). Off, the relay finds rows at its polling interval only; PostgreSQL serialises
         * the commits of notifying transactions briefly, which a very write-heavy database may
         * prefer to avoid.
         *
         * @param notify true to send {@code pg_notify} with every row
         * @return this builder
         */
        public Builder notify(boolean notify) {
            this.notify = notify;
            return this;
        }

        /** {@return the outbox} */
        public AnkusaOutbox build() {
            return new AnkusaOutbox(this);
        }
    }
}
