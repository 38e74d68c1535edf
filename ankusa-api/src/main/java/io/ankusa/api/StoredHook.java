package io.ankusa.api;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A hook as the store holds it now ({@code Queue.hook}): the hook as it was ingested, when the queue
 * accepted it, and where each of its deliveries stands.
 *
 * <p>{@link #hook()} is the stored hook itself: its id, source, tenant, headers (in ingest order,
 * byte for byte), payload, sinks, idempotency and ordering keys and the trace context stored with it.
 * It is empty when the stored hook does not decode (corruption): what remains is then its
 * deliveries, which a claim quarantines.
 *
 * @param tenantId   the tenant it is filed under
 * @param seq        its commit sequence number (as in its {@link Receipt})
 * @param hook       the hook as ingested; empty when its stored bytes do not decode
 * @param receivedAt when the queue accepted it; empty when its stored bytes do not decode
 * @param deliveries one per sink it was ingested with or expanded to, by sink number
 */
public record StoredHook(String tenantId, long seq, Optional<Hook> hook, Optional<Instant> receivedAt,
        List<StoredDelivery> deliveries) {

    /**
     * Checks the fields and copies the list.
     *
     * @param tenantId the tenant it is filed under
     * @param seq its commit sequence number
     * @param hook the hook as ingested, if it decodes
     * @param receivedAt when the queue accepted it, if it decodes
     * @param deliveries one per sink, by sink number
     */
    public StoredHook {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(hook, "hook");
        Objects.requireNonNull(receivedAt, "receivedAt");
        deliveries = List.copyOf(deliveries);
        if (seq < 1) {
            throw new IllegalArgumentException("seq must be >= 1: " + seq);
        }
    }

    /**
     * The delivery to {@code sink}, if the hook has one.
     *
     * @param sink the sink number
     * @return its delivery, or empty when the hook was never meant for that sink
     */
    public Optional<StoredDelivery> delivery(int sink) {
        return deliveries.stream().filter(d -> d.sink() == sink).findFirst();
    }
}
