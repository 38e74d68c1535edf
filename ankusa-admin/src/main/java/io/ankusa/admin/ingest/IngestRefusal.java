package io.ankusa.admin.ingest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.json.Nodes;
import java.util.LinkedHashMap;
import java.util.Map;

/** A request the edge answers with an error: its status, its JSON body and the headers it needs. */
final class IngestRefusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final transient ObjectNode body;
    private final transient Map<String, String> headers = new LinkedHashMap<>();

    IngestRefusal(int status, ObjectNode body) {
        super(body.path("error").asText(), null, false, false);
        this.status = status;
        this.body = body;
    }

    /** A refusal with {@code {"error": code, "message": message}}. */
    static IngestRefusal of(int status, String code, String message) {
        return new IngestRefusal(status, Nodes.error(code, message));
    }

    static IngestRefusal badRequest(String message) {
        return of(400, "bad_request", message);
    }

    /** Adds a response header. */
    IngestRefusal header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /** Adds {@code Retry-After} in whole seconds, at least one. */
    IngestRefusal retryAfterSeconds(long seconds) {
        return header("Retry-After", Long.toString(Math.max(1, seconds)));
    }

    int status() {
        return status;
    }

    ObjectNode body() {
        return body;
    }

    Map<String, String> headers() {
        return headers;
    }
}
