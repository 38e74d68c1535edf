package io.ankusa.admin.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.ankusa.admin.json.Nodes;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes every answer of the API, errors included: JSON in UTF-8 with the headers that keep a
 * browser from reading it as anything else or framing it, and from caching or leaking it.
 */
public final class JsonResponses {

    /** The content type of every answer. */
    public static final String CONTENT_TYPE = "application/json; charset=utf-8";

    private JsonResponses() {
    }

    /**
     * Sets the security headers on {@code response}.
     *
     * @param response the response
     */
    public static void secure(HttpServletResponse response) {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("Cache-Control", "no-store");
    }

    /**
     * Writes {@code body} with {@code status}.
     *
     * @param response the response
     * @param status   the HTTP status
     * @param body     the JSON body
     * @throws IOException when the client went away
     */
    public static void write(HttpServletResponse response, int status, JsonNode body) throws IOException {
        byte[] bytes = Nodes.bytes(body);
        response.setStatus(status);
        secure(response);
        response.setHeader("Content-Type", CONTENT_TYPE);
        response.setContentLength(bytes.length);
        try (OutputStream out = response.getOutputStream()) {
            out.write(bytes);
        }
    }
}
