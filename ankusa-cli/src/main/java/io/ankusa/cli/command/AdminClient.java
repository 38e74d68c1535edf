package io.ankusa.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Calls a running node's admin API ({@code docs/admin.md}) with a bearer token: {@code GET}s, and
 * {@code POST}s carrying the CSRF token that {@code GET /v1/session} hands out. A typed error body
 * becomes the {@link CommandFailure} of the exit code the same refusal has against a store; no
 * answer at all is {@link ExitCode#UNREACHABLE}, a 401 or 403 {@link ExitCode#UNAUTHORIZED}.
 */
final class AdminClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final URI base;
    private final String token;
    private final HttpClient http;
    private String csrfToken;

    AdminClient(URI base, String token) {
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text : text + "/");
        this.token = Objects.requireNonNull(token, "token");
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The API's base URL, ending in {@code /}. */
    URI base() {
        return base;
    }

    /** One path segment, percent-encoded (a tenant id may hold {@code /}, {@code %} or spaces). */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** {@code GET path} (relative to the base, e.g. {@code v1/stats?limit=5}): the answer's JSON. */
    JsonNode get(String path) {
        return send(request(path).GET().build());
    }

    /** {@code POST path} with a JSON body, after fetching the caller's CSRF token once. */
    JsonNode post(String path, JsonNode body) {
        if (csrfToken == null) {
            csrfToken = get("v1/session").path("csrfToken").asText();
        }
        HttpRequest request = request(path).header("Content-Type", "application/json")
                .header("X-Ankusa-CSRF", csrfToken)
                .POST(HttpRequest.BodyPublishers.ofByteArray(write(body))).build();
        return send(request);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + token).header("Accept", "application/json");
    }

    private JsonNode send(HttpRequest request) {
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.UNREACHABLE, "no answer from the admin API at " + base + ": "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailure(ExitCode.FAILURE, "interrupted while calling " + base, e);
        }
        JsonNode body = read(response);
        if (response.statusCode() / 100 == 2) {
            return body;
        }
        throw ApiErrors.failure(response.statusCode(), body.path("error").asText(""),
                body.path("message").asText(""), base);
    }

    private JsonNode read(HttpResponse<byte[]> response) {
        try {
            JsonNode node = MAPPER.readTree(response.body());
            if (node == null || !node.isObject()) {
                throw new IOException("not a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.UNREACHABLE, base + " did not answer as the admin API does (HTTP "
                    + response.statusCode() + ", " + e.getMessage() + ")", e);
        }
    }

    private static byte[] write(JsonNode body) {
        try {
            return MAPPER.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException("a JSON tree did not write", e);
        }
    }

    /** A fresh JSON object for a request body. */
    static com.fasterxml.jackson.databind.node.ObjectNode object() {
        return MAPPER.createObjectNode();
    }
}
