package io.ankusa.admin.ingest;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.admin.json.Nodes;
import io.ankusa.api.Hook;
import io.ankusa.api.InvalidHookException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The hook a request body describes, before the edge adds its id rule, idempotency key and trace:
 * {@code {"tenant", "id", "source", "headers", "payload" | "payloadBase64", "sinks" | "eventType", "orderingKey"}}.
 * A field the edge does not know, a field of the wrong JSON type and both payload fields at once are
 * {@code bad_request}. The library's input rules are {@link Hook.Builder#build()}'s, among them that a
 * hook names its sinks or an event type to fan out by, not both ({@code event_type_with_sinks}).
 */
final class HookRequest {

    static final Set<String> FIELDS = Set.of("tenant", "id", "source", "headers", "payload", "payloadBase64",
            "sinks", "orderingKey", "eventType");

    private final Hook.Builder builder = Hook.builder();
    private final Optional<String> id;
    private final Optional<String> tenant;

    private HookRequest(JsonNode body) {
        for (Map.Entry<String, JsonNode> field : body.properties()) {
            String name = field.getKey();
            if (!FIELDS.contains(name)) {
                throw IngestRefusal.badRequest("unknown field '" + name + "'");
            }
        }
        id = text(body, "id");
        tenant = text(body, "tenant");
        tenant.ifPresent(builder::tenantId);
        text(body, "source").ifPresent(builder::sourceId);
        text(body, "orderingKey").ifPresent(builder::orderingKey);
        text(body, "eventType").ifPresent(builder::eventType);
        headers(body.get("headers"));
        payload(body);
        sinks(body.get("sinks"));
    }

    /** Parses {@code bytes} as a hook request. */
    static HookRequest parse(byte[] bytes) {
        JsonNode body;
        try {
            body = Nodes.read(bytes);
        } catch (JacksonException e) {
            throw IngestRefusal.badRequest("the body is not JSON");
        } catch (IOException e) {
            throw IngestRefusal.badRequest("the body could not be read as JSON");
        }
        if (body == null || !body.isObject()) {
            throw IngestRefusal.badRequest("the body is a JSON object");
        }
        return new HookRequest(body);
    }

    /** The body's {@code id}, if it gives one. */
    Optional<String> id() {
        return id;
    }

    /** The builder, holding everything the body says but the id. */
    Hook.Builder builder() {
        return builder;
    }

    private static Optional<String> text(JsonNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw IngestRefusal.badRequest("field '" + field + "' is a string");
        }
        return Optional.of(node.textValue());
    }

    private void headers(JsonNode node) {
        if (node == null || node.isNull()) {
            return;
        }
        if (!node.isObject()) {
            throw IngestRefusal.badRequest("field 'headers' is an object of strings");
        }
        if (node.size() > Hook.HEADERS_MAX) {
            throw new InvalidHookException(InvalidHookException.Reason.TOO_MANY_HEADERS,
                    node.size() + " headers; at most " + Hook.HEADERS_MAX);
        }
        for (Map.Entry<String, JsonNode> header : node.properties()) {
            if (!header.getValue().isTextual()) {
                throw IngestRefusal.badRequest("header values are strings");
            }
            builder.header(header.getKey(), header.getValue().textValue());
        }
    }

    private void payload(JsonNode body) {
        Optional<String> textual = text(body, "payload");
        Optional<String> base64 = text(body, "payloadBase64");
        if (textual.isPresent() && base64.isPresent()) {
            throw IngestRefusal.badRequest("give 'payload' (text) or 'payloadBase64' (bytes), not both");
        }
        textual.ifPresent(builder::payload);
        if (base64.isPresent()) {
            try {
                builder.payload(Base64.getDecoder().decode(base64.get()));
            } catch (IllegalArgumentException e) {
                throw new InvalidHookException(InvalidHookException.Reason.PAYLOAD_INVALID,
                        "payloadBase64 is not base64 (RFC 4648, with padding)");
            }
        }
    }

    private void sinks(JsonNode node) {
        if (node == null || node.isNull()) {
            return;
        }
        if (!node.isArray()) {
            throw IngestRefusal.badRequest("field 'sinks' is an array of sink numbers");
        }
        if (node.size() > Hook.SINKS_MAX) {
            throw new InvalidHookException(InvalidHookException.Reason.TOO_MANY_SINKS,
                    node.size() + " sinks; at most " + Hook.SINKS_MAX);
        }
        List<Integer> sinks = new ArrayList<>(node.size());
        for (JsonNode sink : node) {
            if (!sink.isIntegralNumber()) {
                throw IngestRefusal.badRequest("a sink is a whole number");
            }
            if (!sink.canConvertToInt() || sink.intValue() < 0 || sink.intValue() > 0xFFFF) {
                throw new InvalidHookException(InvalidHookException.Reason.SINK_OUT_OF_RANGE,
                        "sink " + sink.asText() + " is outside 0..65535");
            }
            sinks.add(sink.intValue());
        }
        builder.sinks(sinks);
    }
}
