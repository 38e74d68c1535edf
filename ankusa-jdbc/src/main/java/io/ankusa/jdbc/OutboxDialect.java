package io.ankusa.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL the outbox speaks to one kind of database: its schema (a resource of this module,
 * {@code io/ankusa/jdbc/postgresql.sql} or {@code mysql.sql}), the relay's lock and its wake-up.
 *
 * <ul>
 * <li>{@link #POSTGRESQL}: a session-level advisory lock ({@code pg_try_advisory_lock}) on a key
 *     derived from the table name; {@code AnkusaOutbox.add} sends {@code pg_notify} on the table's
 *     channel in the application's transaction (delivered at commit), and the relay, which
 *     {@code LISTEN}s when pgjdbc is on the module path, wakes on it.</li>
 * <li>{@link #MYSQL} (MySQL 8, MariaDB 10.6 and later): a named session lock ({@code GET_LOCK}) and a
 *     polling interval.</li>
 * </ul>
 */
public enum OutboxDialect {

    /** PostgreSQL 13 and later (the relay reads {@code pg_current_snapshot()}). */
    POSTGRESQL("postgresql.sql", "SELECT pg_try_advisory_lock(?)", "SELECT pg_advisory_unlock(?)"),

    /** MySQL 8 and MariaDB 10.6 and later, InnoDB. */
    MYSQL("mysql.sql", "SELECT GET_LOCK(?, 0)", "SELECT RELEASE_LOCK(?)");

    private final String schemaResource;
    private final String tryLock;
    private final String unlock;

    OutboxDialect(String schemaResource, String tryLock, String unlock) {
        this.schemaResource = schemaResource;
        this.tryLock = tryLock;
        this.unlock = unlock;
    }

    /**
     * The statements that create the outbox's three tables if they do not exist: {@code table},
     * {@code table_refused} and {@code table_gaps}.
     *
     * @param table the outbox table's name (a lower-case SQL identifier, as {@link AnkusaOutbox} checks it)
     * @return the {@code CREATE TABLE IF NOT EXISTS} statements, in order
     * @throws OutboxException ({@link OutboxException.Reason#SCHEMA_UNREADABLE}) if the resource is missing
     */
    public List<String> schema(String table) {
        String text;
        try (InputStream in = OutboxDialect.class.getResourceAsStream(schemaResource)) {
            if (in == null) {
                throw new OutboxException(OutboxException.Reason.SCHEMA_UNREADABLE,
                        "schema resource io/ankusa/jdbc/" + schemaResource + " is missing", null);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new OutboxException(OutboxException.Reason.SCHEMA_UNREADABLE,
                    "schema resource io/ankusa/jdbc/" + schemaResource + " could not be read",
                    new UncheckedIOException(e));
        }
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (line.endsWith(";")) {
                String sql = current.toString().trim();
                statements.add(sql.substring(0, sql.length() - 1).replace("${table}", OutboxRow.checkTable(table)));
                current.setLength(0);
            }
        }
        return statements;
    }

    /** {@return the statement that tries the relay's lock once, without waiting; one parameter, the lock key} */
    String tryLock() {
        return tryLock;
    }

    /** {@return the statement that releases the relay's lock; one parameter, the lock key} */
    String unlock() {
        return unlock;
    }

    /** The lock's key for {@code table}: a 64-bit number on PostgreSQL, a name on MySQL. */
    Object lockKey(String table) {
        String name = "ankusa.outbox." + table;
        if (this == MYSQL) {
            return name;
        }
        // FNV-1a 64: stable across JVMs and releases, unlike String.hashCode's 32 bits
        long hash = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.US_ASCII)) {
            hash ^= b & 0xFF;
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
