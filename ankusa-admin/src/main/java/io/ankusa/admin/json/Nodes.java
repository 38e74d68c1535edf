package io.ankusa.admin.json;

import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.function.Function;

/**
 * Building blocks of the API's JSON: objects and arrays from Jackson's tree model (no reflection),
 * times as ISO-8601 strings, durations in milliseconds, absent values as JSON {@code null}.
 */
public final class Nodes {

    private static final JsonNodeFactory FACTORY = JsonNodeFactory.instance;

    private static final ObjectMapper MAPPER = new ObjectMapper(new JsonFactoryBuilder()
            .enable(JsonWriteFeature.ESCAPE_NON_ASCII).characterEscapes(new SafeEscapes()).build());

    private Nodes() {
    }

    /**
     * {@code node} as the API writes JSON: every character outside printable ASCII, and
     * {@code < > & '}, escaped.
     *
     * @param node the JSON
     * @return its UTF-8 bytes
     */
    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree did not write", e);
        }
    }

    /**
     * Reads JSON.
     *
     * @param bytes UTF-8 JSON
     * @return the tree (a missing node for no content)
     * @throws IOException when it is not JSON
     */
    public static JsonNode read(byte[] bytes) throws IOException {
        return MAPPER.readTree(bytes);
    }

    /**
     * A new, empty object.
     *
     * @return the object
     */
    public static ObjectNode object() {
        return FACTORY.objectNode();
    }

    /**
     * An array of {@code items}, each written by {@code write}.
     *
     * @param items the items
     * @param write how one item is written
     * @param <T>   the items' type
     * @return the array
     */
    public static <T> ArrayNode array(Collection<T> items, Function<T, ? extends JsonNode> write) {
        ArrayNode array = FACTORY.arrayNode(items.size());
        items.forEach(item -> array.add(write.apply(item)));
        return array;
    }

    /**
     * The typed error body: {@code {"error": code, "message": message}}.
     *
     * @param code    the error code
     * @param message what went wrong
     * @return the body
     */
    public static ObjectNode error(String code, String message) {
        ObjectNode node = object();
        node.put("error", code);
        node.put("message", message == null ? "" : message);
        return node;
    }

    static void put(ObjectNode node, String name, Instant at) {
        node.put(name, at.toString());
    }

    static void putInstant(ObjectNode node, String name, Optional<Instant> at) {
        if (at.isPresent()) {
            node.put(name, at.get().toString());
        } else {
            node.putNull(name);
        }
    }

    static void putMillis(ObjectNode node, String name, Optional<Duration> duration) {
        if (duration.isPresent()) {
            node.put(name, duration.get().toMillis());
        } else {
            node.putNull(name);
        }
    }

    static void putText(ObjectNode node, String name, Optional<String> text) {
        if (text.isPresent()) {
            node.put(name, text.get());
        } else {
            node.putNull(name);
        }
    }

    /**
     * Puts a paging cursor: the token, or JSON {@code null} on the last page.
     *
     * @param node  the object
     * @param name  the field
     * @param token the cursor's token, if there is a next page
     */
    public static void putCursor(ObjectNode node, String name, Optional<String> token) {
        putText(node, name, token);
    }
}
