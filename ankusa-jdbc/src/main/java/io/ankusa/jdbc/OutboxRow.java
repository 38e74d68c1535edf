package io.ankusa.jdbc;

import io.ankusa.api.Hook;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One row of the outbox table, and how a {@link Hook} maps to its columns.
 *
 * <pre>
 * column           holds
 * id               the row's place in the relay's order (identity / auto-increment)
 * tenant_id        Hook.tenantId(), NULL when the hook has none (the default tenant)
 * hook_id          Hook.id()
 * source_id        Hook.sourceId()
 * event_type       NULL (reserved for event-type filters)
 * idempotency_key  Hook.idempotencyKey(), NULL when none
 * sinks            the sink numbers in order, decimal, comma-separated ("0,3")
 * headers          one "name: value" line per header, in order, joined by LF (header names are
 *                  tokens, without ':'; values hold no CR or LF, so the split is unambiguous)
 * payload          the payload bytes
 * created_at       when the row was inserted (the database's clock)
 * </pre>
 */
final class OutboxRow {

    final long id;
    private final String tenantId;
    private final String hookId;
    private final String sourceId;
    private final String eventType;
    private final String idempotencyKey;
    private final String sinks;
    private final String headers;
    private final byte[] payload;
    private final Timestamp createdAt;

    private OutboxRow(long id, String tenantId, String hookId, String sourceId, String eventType,
            String idempotencyKey, String sinks, String headers, byte[] payload, Timestamp createdAt) {
        this.id = id;
        this.tenantId = tenantId;
        this.hookId = hookId;
        this.sourceId = sourceId;
        this.eventType = eventType;
        this.idempotencyKey = idempotencyKey;
        this.sinks = sinks;
        this.headers = headers;
        this.payload = payload;
        this.createdAt = createdAt;
    }

    /** The columns a relay reads, in the order {@link #read} expects. */
    static final String COLUMNS =
            "id, tenant_id, hook_id, source_id, event_type, idempotency_key, sinks, headers, payload, created_at";

    private static final Pattern TABLE = Pattern.compile("[a-z_][a-z0-9_]{0,50}");

    /** Refuses a table name that is not a plain lower-case identifier (it is spliced into SQL). */
    static String checkTable(String table) {
        if (!TABLE.matcher(table).matches()) {
            throw new IllegalArgumentException("outbox table name must match " + TABLE.pattern() + ": " + table);
        }
        return table;
    }

    /** Binds a hook's columns as parameters 1..8 (tenant_id .. payload) of an insert. */
    static void bind(PreparedStatement insert, Hook hook) throws SQLException {
        setNullable(insert, 1, hook.tenantId().orElse(null));
        insert.setString(2, hook.id());
        insert.setString(3, hook.sourceId());
        insert.setNull(4, Types.VARCHAR);
        setNullable(insert, 5, hook.idempotencyKey().orElse(null));
        insert.setString(6, encodeSinks(hook.sinks()));
        insert.setString(7, encodeHeaders(hook.headers()));
        insert.setBytes(8, hook.payload());
    }

    /** Reads the current row of {@code rows}, selected with {@link #COLUMNS}. */
    static OutboxRow read(ResultSet rows) throws SQLException {
        return new OutboxRow(rows.getLong(1), rows.getString(2), rows.getString(3), rows.getString(4),
                rows.getString(5), rows.getString(6), rows.getString(7), rows.getString(8), rows.getBytes(9),
                rows.getTimestamp(10));
    }

    /** Binds every column but the id as parameters {@code from}..{@code from+8}, created_at last. */
    void bindAll(PreparedStatement statement, int from) throws SQLException {
        setNullable(statement, from, tenantId);
        statement.setString(from + 1, hookId);
        statement.setString(from + 2, sourceId);
        setNullable(statement, from + 3, eventType);
        setNullable(statement, from + 4, idempotencyKey);
        statement.setString(from + 5, sinks);
        statement.setString(from + 6, headers);
        statement.setBytes(from + 7, payload);
        statement.setTimestamp(from + 8, createdAt);
    }

    /** {@return the hook id column, for logs} */
    String hookId() {
        return hookId;
    }

    /**
     * The hook the row holds, checked by {@link Hook.Builder#build()} as at {@code add}: a row that
     * something other than {@code AnkusaOutbox.add} wrote may break a rule.
     *
     * @throws io.ankusa.api.InvalidHookException when the row breaks an input rule
     * @throws IllegalArgumentException when the sinks or headers columns do not decode
     */
    Hook toHook() {
        Hook.Builder builder = Hook.builder().id(hookId).sourceId(sourceId).payload(payload)
                .headers(decodeHeaders(headers)).sinks(decodeSinks(sinks));
        if (tenantId != null) {
            builder.tenantId(tenantId);
        }
        if (idempotencyKey != null) {
            builder.idempotencyKey(idempotencyKey);
        }
        return builder.build();
    }

    static String encodeSinks(List<Integer> sinks) {
        StringBuilder text = new StringBuilder();
        for (int sink : sinks) {
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(sink);
        }
        return text.toString();
    }

    static List<Integer> decodeSinks(String text) {
        List<Integer> sinks = new ArrayList<>();
        if (!text.isEmpty()) {
            for (String part : text.split(",", -1)) {
                sinks.add(Integer.parseInt(part));
            }
        }
        return sinks;
    }

    static String encodeHeaders(Map<String, String> headers) {
        StringBuilder text = new StringBuilder();
        headers.forEach((name, value) -> {
            if (text.length() > 0) {
                text.append('\n');
            }
            text.append(name).append(": ").append(value);
        });
        return text.toString();
    }

    static Map<String, String> decodeHeaders(String text) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (!text.isEmpty()) {
            for (String line : text.split("\n", -1)) {
                int colon = line.indexOf(": ");
                if (colon < 0) {
                    throw new IllegalArgumentException("header line without ': ' separator");
                }
                headers.put(line.substring(0, colon), line.substring(colon + 2));
            }
        }
        return headers;
    }

    private static void setNullable(PreparedStatement statement, int index, String value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else {
            statement.setString(index, value);
        }
    }
}
