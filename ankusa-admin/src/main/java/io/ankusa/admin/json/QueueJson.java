package io.ankusa.admin.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadStats;
import io.ankusa.api.DeliveryAttempt;
import io.ankusa.api.DiskUsage;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.QuarantinedDelivery;
import io.ankusa.api.QueueHealth;
import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantStats;
import io.ankusa.api.TenantSummary;
import java.util.Locale;

/**
 * The JSON of what the queue's reads return: counters, disk usage, health, tenants, dead letters,
 * attempts, endpoints, quarantined deliveries and audit entries. Every string the queue holds
 * (tenant ids, hook ids, errors) is written as a JSON string value, escaped by Jackson.
 */
public final class QueueJson {

    private QueueJson() {
    }

    /**
     * The node's counters.
     *
     * @param stats the counters
     * @return the object
     */
    public static ObjectNode stats(QueueStats stats) {
        ObjectNode node = Nodes.object();
        node.put("pending", stats.pending());
        node.put("scheduled", stats.scheduled());
        node.put("inflight", stats.inflight());
        node.put("dead", stats.dead());
        node.put("quarantined", stats.quarantined());
        node.put("bytes", stats.bytes());
        node.put("archivePending", stats.archivePending());
        return node;
    }

    /**
     * The store's size and the attempt history's share.
     *
     * @param disk the disk usage
     * @return the object
     */
    public static ObjectNode disk(DiskUsage disk) {
        ObjectNode node = Nodes.object();
        node.put("storeBytes", disk.storeBytes());
        node.put("historyBytes", disk.historyBytes());
        node.put("historyMaxBytes", disk.historyMaxBytes());
        return node;
    }

    /**
     * The queue's state.
     *
     * @param health the health
     * @return the object
     */
    public static ObjectNode health(QueueHealth health) {
        ObjectNode node = Nodes.object();
        node.put("state", lower(health.state()));
        node.put("running", health.running());
        Nodes.putText(node, "component", health.component());
        Nodes.putText(node, "cause", health.cause());
        return node;
    }

    /**
     * A tenant's counters.
     *
     * @param stats the counters
     * @return the object
     */
    public static ObjectNode tenantStats(TenantStats stats) {
        ObjectNode node = Nodes.object();
        node.put("pending", stats.pending());
        node.put("scheduled", stats.scheduled());
        node.put("inflight", stats.inflight());
        node.put("dead", stats.dead());
        node.put("quarantined", stats.quarantined());
        node.put("bytes", stats.bytes());
        return node;
    }

    /**
     * A tenant's dead-letter count.
     *
     * @param dead the count
     * @return the object
     */
    public static ObjectNode deadStats(DeadStats dead) {
        ObjectNode node = Nodes.object();
        node.put("dead", dead.dead());
        return node;
    }

    /**
     * One tenant of a listing.
     *
     * @param tenant the tenant and its counters
     * @return the object
     */
    public static ObjectNode tenant(TenantSummary tenant) {
        ObjectNode node = Nodes.object();
        node.put("tenant", tenant.tenantId());
        node.set("stats", tenantStats(tenant.stats()));
        return node;
    }

    /**
     * One dead letter.
     *
     * @param letter the letter
     * @return the object
     */
    public static ObjectNode deadLetter(DeadLetter letter) {
        ObjectNode node = Nodes.object();
        node.put("tenant", letter.tenantId());
        node.put("source", letter.sourceId());
        node.put("hookId", letter.hookId());
        node.put("seq", letter.seq());
        node.put("sink", letter.sink());
        Nodes.put(node, "deadAt", letter.deadAt());
        node.put("attempts", letter.attempts());
        node.put("lastError", letter.lastError());
        node.put("cursor", letter.cursor().token());
        return node;
    }

    /**
     * One attempt of the history.
     *
     * @param attempt the attempt
     * @return the object
     */
    public static ObjectNode attempt(DeliveryAttempt attempt) {
        ObjectNode node = Nodes.object();
        node.put("tenant", attempt.tenantId());
        node.put("hookId", attempt.hookId());
        node.put("seq", attempt.seq());
        node.put("sink", attempt.sink());
        node.put("attempt", attempt.attempt());
        Nodes.put(node, "at", attempt.at());
        node.put("outcome", lower(attempt.outcome()));
        if (attempt.status().isPresent()) {
            node.put("status", attempt.status().getAsInt());
        } else {
            node.putNull("status");
        }
        node.put("latencyMillis", attempt.latency().toMillis());
        node.put("latencyMicros", attempt.latency().toNanos() / 1_000);
        node.put("errorClass", attempt.errorClass().code());
        node.put("reason", attempt.reason());
        node.put("outOfOrder", attempt.outOfOrder());
        node.put("cursor", attempt.cursor().token());
        return node;
    }

    /**
     * An endpoint's stored state.
     *
     * @param status the endpoint
     * @return the object
     */
    public static ObjectNode endpoint(EndpointStatus status) {
        ObjectNode node = Nodes.object();
        node.put("tenant", status.tenant());
        node.put("sink", status.sink());
        node.put("state", lower(status.state()));
        Nodes.putText(node, "reason", status.reason().map(r -> r.code()));
        Nodes.putInstant(node, "disabledSince", status.disabledSince());
        Nodes.putInstant(node, "failingSince", status.failingSince());
        return node;
    }

    /**
     * A quarantined delivery.
     *
     * @param delivery the delivery
     * @return the object
     */
    public static ObjectNode quarantined(QuarantinedDelivery delivery) {
        ObjectNode node = Nodes.object();
        node.put("tenant", delivery.tenant());
        node.put("seq", delivery.seq());
        node.put("sink", delivery.sink());
        node.put("bytes", delivery.bytes());
        node.put("reason", lower(delivery.reason()));
        Nodes.put(node, "quarantinedAt", delivery.quarantinedAt());
        return node;
    }

    /**
     * An audit entry.
     *
     * @param entry the entry
     * @return the object
     */
    public static ObjectNode audit(AuditEntry entry) {
        ObjectNode node = Nodes.object();
        node.put("seq", entry.seq());
        Nodes.put(node, "at", entry.at());
        node.put("action", entry.action().code());
        node.put("tenant", entry.tenantId());
        if (entry.actor().isPresent()) {
            node.put("actor", entry.actor().get());
        } else {
            node.putNull("actor");
        }
        ObjectNode counts = node.putObject("counts");
        entry.counts().forEach(counts::put);
        return node;
    }

    static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
