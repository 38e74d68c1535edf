package io.ankusa.queue.ledger;

import io.ankusa.api.TraceContext;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A delivery moved to inflight, with everything a sink needs. The payload array is the caller's,
 * not copied (records compare arrays by identity): the claim hands over an array of its own, read
 * out of the stored hook once, and nothing mutates it afterwards (the sink gets a copy in its
 * {@code Delivery}).
 *
 * @param row        the inflight row (what settling refers to)
 * @param tenantId   the tenant it is filed under
 * @param hookId     the hook's id
 * @param sourceId   the hook's source id
 * @param headers    the hook's headers, in ingest order
 * @param payload    the hook's payload
 * @param receivedAt when the queue accepted the hook, epoch milliseconds
 * @param attempt    which attempt this is (1 for the first)
 * @param trace      the trace context stored with the hook, or null for none
 * @param outOfOrder whether the hook carries an ordering key but this delivery has no place in the
 *                   key's order (a revived dead letter, a delivery added by expansion, one released
 *                   from the quarantine): it is attempted outside the key's order
 */
public record ClaimedDelivery(InflightRow row, String tenantId, String hookId, String sourceId,
        Map<String, String> headers, byte[] payload, long receivedAt, int attempt, TraceContext trace,
        boolean outOfOrder) {

    /**
     * A claimed delivery without a trace context, in its ordering key's order or of a hook without one.
     *
     * @param row        the inflight row
     * @param tenantId   the tenant it is filed under
     * @param hookId     the hook's id
     * @param sourceId   the hook's source id
     * @param headers    the hook's headers, in ingest order
     * @param payload    the hook's payload
     * @param receivedAt when the queue accepted the hook, epoch milliseconds
     * @param attempt    which attempt this is (1 for the first)
     */
    public ClaimedDelivery(InflightRow row, String tenantId, String hookId, String sourceId,
            Map<String, String> headers, byte[] payload, long receivedAt, int attempt) {
        this(row, tenantId, hookId, sourceId, headers, payload, receivedAt, attempt, null, false);
    }

    /** Checks the fields. */
    public ClaimedDelivery {
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(hookId, "hookId");
        Objects.requireNonNull(sourceId, "sourceId");
        headers = headers.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        Objects.requireNonNull(payload, "payload");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1: " + attempt);
        }
    }

    /** The sink number. */
    public int sink() {
        return row.sink();
    }
}
