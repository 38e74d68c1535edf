/**
 * A transactional outbox in the application's own database, over plain JDBC:
 * {@link io.ankusa.jdbc.AnkusaOutbox} writes a hook as a row in the application's transaction, and
 * {@link io.ankusa.jdbc.OutboxRelay} moves committed rows into a {@code Queue} exactly once, with
 * the row id as the intake position. docs/outbox.md describes the tables and the guarantees.
 */
// pgjdbc ships no descriptor (Automatic-Module-Name org.postgresql.jdbc); optional, for LISTEN only
@SuppressWarnings("requires-automatic")
module io.ankusa.jdbc {
    requires org.slf4j;
    requires transitive io.ankusa.api;
    requires transitive io.ankusa.queue;
    requires transitive java.sql;
    requires static org.postgresql.jdbc;

    exports io.ankusa.jdbc;
}
