package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.json.Nodes;
import io.ankusa.admin.json.QueueJson;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.QuarantinedDelivery;
import io.ankusa.queue.Queue;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The node-wide reads: the caller's session, the counters, the endpoints with a stored state, the
 * quarantine and the audit trail. Each listing is one bounded read of at most {@code limit}
 * entries; rows of tenants out of the caller's scope are left out of the page.
 */
final class NodeRoutes {

    private final Queue queue;

    NodeRoutes(Queue queue) {
        this.queue = queue;
    }

    static ApiResponse session(ApiRequest request) {
        ObjectNode body = Nodes.object();
        body.put("principal", request.caller().principal());
        body.put("role", request.caller().role());
        body.put("csrfToken", request.caller().csrfToken());
        body.put("csrfHeader", "X-Ankusa-CSRF");
        return ApiResponse.ok(body);
    }

    /** The history of a router built without a sampler: no samples. */
    static JsonNode noHistory() {
        ObjectNode body = Nodes.object();
        body.put("intervalSeconds", 10);
        for (String column : List.of("t", "pending", "scheduled", "inflight", "dead", "quarantined",
                "oldestDueSeconds", "deliveredPerSecond", "retriedPerSecond", "failedPerSecond")) {
            body.putArray(column);
        }
        return body;
    }

    ApiResponse stats(ApiRequest request) {
        ObjectNode body = Nodes.object();
        body.set("stats", QueueJson.stats(queue.stats()));
        body.set("disk", QueueJson.disk(queue.diskUsage()));
        body.set("health", QueueJson.health(queue.health()));
        body.put("tenantsSeen", queue.tenantCount());
        // The queue's gauge: a read of the active index's head, no scan.
        Optional<Duration> oldestDue = queue.oldestDueAge();
        if (oldestDue.isPresent()) {
            body.put("oldestDueMillis", oldestDue.get().toMillis());
        } else {
            body.putNull("oldestDueMillis");
        }
        return ApiResponse.ok(body);
    }

    ApiResponse endpoints(ApiRequest request) {
        List<EndpointStatus> endpoints = queue.endpoints(request.limit());
        ArrayNode listed = Nodes.array(endpoints.stream().filter(e -> request.caller().sees(e.tenant())).toList(),
                QueueJson::endpoint);
        ObjectNode body = Nodes.object();
        body.set("endpoints", listed);
        return ApiResponse.ok(body);
    }

    ApiResponse quarantine(ApiRequest request) {
        List<QuarantinedDelivery> rows = queue.quarantine(request.limit());
        ObjectNode body = Nodes.object();
        body.set("quarantined", Nodes.array(rows.stream().filter(q -> request.caller().sees(q.tenant())).toList(),
                QueueJson::quarantined));
        return ApiResponse.ok(body);
    }

    ApiResponse audit(ApiRequest request) {
        int limit = request.limit();
        List<AuditEntry> entries = request.param("before")
                .map(b -> queue.auditTrail(Numbers.parseLong("before", b, 1, Long.MAX_VALUE), limit))
                .orElseGet(() -> queue.auditTrail(limit));
        ObjectNode body = Nodes.object();
        body.set("entries", Nodes.array(entries.stream().filter(e -> request.caller().sees(e.tenantId())).toList(),
                QueueJson::audit));
        if (entries.size() == limit) {
            body.put("before", entries.get(entries.size() - 1).seq());
        } else {
            body.putNull("before");
        }
        return ApiResponse.ok(body);
    }
}
