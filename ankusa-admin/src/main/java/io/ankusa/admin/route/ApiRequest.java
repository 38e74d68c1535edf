package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One request to a route, already authenticated and decoded: the path values its template named
 * (percent-decoded), the query parameters (first value of each, decoded), the JSON body (an empty
 * object when there is none) and the caller. Independent of the servlet API, so the same handlers
 * can serve other front ends.
 *
 * @param path   the template's values by name
 * @param query  the query parameters
 * @param body   the request's JSON object
 * @param caller who is calling
 */
public record ApiRequest(Map<String, String> path, Map<String, String> query, JsonNode body, Caller caller) {

    /** The largest page a listing returns. */
    static final int MAX_LIMIT = 1_000;

    /** The page size when the request names none. */
    static final int DEFAULT_LIMIT = 50;

    /** Copies the maps and validates. */
    public ApiRequest {
        path = Map.copyOf(path);
        query = Map.copyOf(query);
        body = body == null ? JsonNodeFactory.instance.objectNode() : body;
        Objects.requireNonNull(caller, "caller");
    }

    /**
     * The path value {@code name} (the template has it, so it is there).
     *
     * @param name the template variable
     * @return its decoded value
     */
    String pathValue(String name) {
        String value = path.get(name);
        if (value == null) {
            throw new IllegalStateException("the route's template has no {" + name + "}");
        }
        return value;
    }

    /**
     * The tenant of the path, when the caller may see it; a tenant out of its scope is not found,
     * exactly like a tenant the node does not hold.
     *
     * @return the tenant id
     */
    String tenant() {
        String tenant = pathValue("tenant");
        if (!caller.sees(tenant)) {
            throw ApiException.notFound("no tenant '" + tenant + "'");
        }
        return tenant;
    }

    /**
     * A query parameter.
     *
     * @param name its name
     * @return its value, or empty when absent
     */
    Optional<String> param(String name) {
        return Optional.ofNullable(query.get(name));
    }

    /**
     * The {@code limit} parameter: 1..{@value #MAX_LIMIT}, {@value #DEFAULT_LIMIT} when absent.
     *
     * @return the limit
     */
    int limit() {
        return param("limit").map(v -> Numbers.parseInt("limit", v, 1, MAX_LIMIT)).orElse(DEFAULT_LIMIT);
    }

    /**
     * The path value {@code name} as a number in {@code min..max}.
     *
     * @param name the template variable
     * @param min  the least value
     * @param max  the greatest value
     * @return the number
     */
    long pathNumber(String name, long min, long max) {
        return Numbers.parseLong(name, pathValue(name), min, max);
    }
}
