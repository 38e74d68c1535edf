package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.admin.json.Nodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The API's OpenAPI 3.1 document, {@code openapi.json} beside this class, read once. */
final class OpenApi {

    private static final JsonNode DOCUMENT = read();

    private OpenApi() {
    }

    /** The document (a shared node: callers only write it out). */
    static JsonNode document() {
        return DOCUMENT;
    }

    private static JsonNode read() {
        try (InputStream in = OpenApi.class.getResourceAsStream("openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("openapi.json is missing from io.ankusa.admin.route");
            }
            return Nodes.read(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
