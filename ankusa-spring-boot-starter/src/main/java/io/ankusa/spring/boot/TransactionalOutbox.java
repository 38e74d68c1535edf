package io.ankusa.spring.boot;

import io.ankusa.api.Hook;
import io.ankusa.jdbc.AnkusaOutbox;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The outbox's write side for Spring transactions: {@link #add(Hook)} inserts the hook's row on
 * the connection of the current Spring transaction (as {@link DataSourceUtils#getConnection}
 * finds it), so the row, and so the hook, commits or rolls back with the transaction's other
 * statements, such as those of an {@code @Transactional} method or a {@code TransactionTemplate}.
 *
 * <p>Outside a transaction, or in one that holds no connection of this {@link DataSource}, it
 * refuses: an outbox row committed on its own would not be atomic with anything.
 *
 * <p>Thread-safe; it holds no connection.
 */
public final class TransactionalOutbox {

    private final AnkusaOutbox outbox;
    private final DataSource dataSource;

    /**
     * @param outbox     the outbox that writes the rows
     * @param dataSource the data source whose transactional connection the rows are written on
     */
    public TransactionalOutbox(AnkusaOutbox outbox, DataSource dataSource) {
        this.outbox = Objects.requireNonNull(outbox, "outbox");
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * Inserts {@code hook} as one outbox row in the current transaction, as
     * {@link AnkusaOutbox#add(Connection, Hook)} does; the relay ingests it once the transaction commits.
     *
     * @param hook the hook to relay once the transaction commits
     * @return the row's id
     * @throws IllegalTransactionStateException when no transaction is active, or when the active one
     *         holds no connection of this data source (its connection would auto-commit the row)
     * @throws io.ankusa.api.InvalidHookException ({@code payload_too_large}) when the payload is
     *         over the queue's limit; nothing is written
     * @throws io.ankusa.jdbc.OutboxException when the insert fails; roll the transaction back
     */
    public long add(Hook hook) {
        Objects.requireNonNull(hook, "hook");
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalTransactionStateException("TransactionalOutbox.add needs an active transaction "
                    + "(@Transactional or a TransactionTemplate): outside one the outbox row would commit on its own");
        }
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            if (autoCommit(connection)) {
                throw new IllegalTransactionStateException("TransactionalOutbox.add needs a transaction on the "
                        + "outbox's DataSource: the current transaction holds none of its connections, "
                        + "so the row would commit on its own");
            }
            return outbox.add(connection, hook);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /** {@return the outbox table's name} */
    public String table() {
        return outbox.table();
    }

    private static boolean autoCommit(Connection connection) {
        try {
            return connection.getAutoCommit();
        } catch (SQLException e) {
            throw new IllegalTransactionStateException("could not read the connection's auto-commit mode: "
                    + e.getMessage(), e);
        }
    }
}
