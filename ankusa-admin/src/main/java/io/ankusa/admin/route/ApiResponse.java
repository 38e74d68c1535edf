package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A route's answer: the HTTP status and the JSON body.
 *
 * @param status the HTTP status
 * @param body   the body
 */
public record ApiResponse(int status, JsonNode body) {

    /** Validates. */
    public ApiResponse {
        Objects.requireNonNull(body, "body");
    }

    /**
     * A 200 with {@code body}.
     *
     * @param body the body
     * @return the response
     */
    static ApiResponse ok(JsonNode body) {
        return new ApiResponse(200, body);
    }
}
