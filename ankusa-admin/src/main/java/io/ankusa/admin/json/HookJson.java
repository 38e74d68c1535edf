package io.ankusa.admin.json;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.api.Hook;
import io.ankusa.api.StoredDelivery;
import io.ankusa.api.StoredHook;
import io.ankusa.api.TraceContext;
import java.util.Base64;

/**
 * The JSON of one stored hook: its ids, headers (names and values as JSON strings, in ingest
 * order), keys, trace context, sinks and each delivery's state; its payload only when the caller may read it, as
 * base64 (the payload is bytes, not text).
 */
public final class HookJson {

    private HookJson() {
    }

    /**
     * A stored hook.
     *
     * @param stored      the hook and its deliveries
     * @param withPayload whether to include the payload
     * @return the object
     */
    public static ObjectNode hook(StoredHook stored, boolean withPayload) {
        ObjectNode node = Nodes.object();
        node.put("tenant", stored.tenantId());
        node.put("seq", stored.seq());
        Nodes.putInstant(node, "receivedAt", stored.receivedAt());
        node.put("decodable", stored.hook().isPresent());
        if (stored.hook().isPresent()) {
            Hook hook = stored.hook().get();
            node.put("hookId", hook.id());
            node.put("source", hook.sourceId());
            Nodes.putText(node, "idempotencyKey", hook.idempotencyKey());
            Nodes.putText(node, "orderingKey", hook.orderingKey());
            Nodes.putText(node, "traceparent", hook.traceContext().map(TraceContext::traceparent));
            Nodes.putText(node, "tracestate", hook.traceContext().map(TraceContext::tracestate));
            ObjectNode headers = node.putObject("headers");
            hook.headers().forEach(headers::put);
            node.set("sinks", Nodes.array(hook.sinks(), IntNode::valueOf));
            node.put("payloadBytes", hook.payloadLength());
            if (withPayload) {
                node.put("payload", Base64.getEncoder().encodeToString(hook.payload()));
            }
        }
        node.set("deliveries", Nodes.array(stored.deliveries(), HookJson::delivery));
        return node;
    }

    static ObjectNode delivery(StoredDelivery delivery) {
        ObjectNode node = Nodes.object();
        node.put("sink", delivery.sink());
        node.put("state", QueueJson.lower(delivery.state()));
        node.put("attempts", delivery.attempts());
        Nodes.putInstant(node, "lastAttemptAt", delivery.lastAttemptAt());
        node.put("lastError", delivery.lastError());
        return node;
    }
}
