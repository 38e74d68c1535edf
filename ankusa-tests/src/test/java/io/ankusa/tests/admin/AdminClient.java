package io.ankusa.tests.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** A loopback client of an admin server: requests with a bearer token, JSON answers parsed. */
final class AdminClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final int port;

    AdminClient(int port) {
        this.port = port;
    }

    /** An answer: status, headers, the raw body and the body parsed (a missing node for a page). */
    record Reply(int status, Map<String, java.util.List<String>> headers, String raw, JsonNode json) {

        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> String.join(",", e.getValue())).findFirst().orElse(null);
        }

        String error() {
            return json.path("error").asText();
        }
    }

    /** One path segment, percent-encoded (space as %20, '/' as %2F). */
    static String seg(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    Reply get(String path, String token) {
        return get(path, token, Map.of());
    }

    Reply get(String path, String token, Map<String, String> headers) {
        HttpRequest.Builder b = builder(path, token).GET();
        headers.forEach(b::header);
        return send(b.build());
    }

    /** A POST with the token, the CSRF header (when not null) and a JSON body. */
    Reply post(String path, String token, String csrf, String body) {
        return post(path, token, csrf, body, Map.of());
    }

    Reply post(String path, String token, String csrf, String body, Map<String, String> headers) {
        HttpRequest.Builder b = builder(path, token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (csrf != null) {
            b.header("X-Ankusa-CSRF", csrf);
        }
        headers.forEach(b::header);
        return send(b.build());
    }

    /** The CSRF token {@code GET /v1/session} hands {@code token}'s principal. */
    String csrf(String token) {
        return get("/v1/session", token).json().path("csrfToken").asText();
    }

    private HttpRequest.Builder builder(String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    private Reply send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            String type = response.headers().firstValue("Content-Type").orElse("");
            JsonNode json = type.startsWith("text/html") ? JSON.missingNode() : JSON.readTree(response.body());
            return new Reply(response.statusCode(), response.headers().map(), response.body(), json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
