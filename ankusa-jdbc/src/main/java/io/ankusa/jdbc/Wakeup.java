package io.ankusa.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay's wake-up: {@code LISTEN} on the table's channel when the session is a pgjdbc
 * PostgreSQL connection, else nothing (the relay sleeps its polling interval). Notifications are
 * sent by {@code AnkusaOutbox.add} and delivered by PostgreSQL only once the adding transaction
 * commits, so a wake-up never runs ahead of the row.
 */
final class Wakeup {

    private static final Logger LOG = LoggerFactory.getLogger(Wakeup.class);

    private static final Wakeup NONE = new Wakeup(null, null);

    private final Connection session;
    private final String channel;

    private Wakeup(Connection session, String channel) {
        this.session = session;
        this.channel = channel;
    }

    /** Listens on {@code session} if asked and possible; otherwise a wake-up that never fires. */
    static Wakeup open(Connection session, String channel, boolean listen) throws SQLException {
        if (!listen || !pgjdbcPresent() || !session.isWrapperFor(PGConnection.class)) {
            return NONE;
        }
        try (Statement statement = session.createStatement()) {
            statement.execute("LISTEN " + OutboxRow.checkTable(channel));
        }
        return new Wakeup(session, channel);
    }

    /** {@return whether this wake-up listens (else the relay polls)} */
    boolean listening() {
        return session != null;
    }

    /** Waits up to {@code millis} for a notification; true when one came. */
    boolean await(int millis) throws SQLException {
        PGNotification[] notifications = session.unwrap(PGConnection.class).getNotifications(millis);
        return notifications != null && notifications.length > 0;
    }

    /** Stops listening (the session may already be gone). */
    void close() {
        if (session == null) {
            return;
        }
        try (Statement statement = session.createStatement()) {
            statement.execute("UNLISTEN " + channel);
        } catch (SQLException e) {
            LOG.debug("UNLISTEN {} failed (the session ends anyway): {}", channel, e.toString());
        }
    }

    private static boolean pgjdbcPresent() {
        try {
            Class.forName("org.postgresql.PGConnection", false, Wakeup.class.getClassLoader());
            return Wakeup.class.getModule().canRead(PGConnection.class.getModule())
                    || !Wakeup.class.getModule().isNamed();
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
