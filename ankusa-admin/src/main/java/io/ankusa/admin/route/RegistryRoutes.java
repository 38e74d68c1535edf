package io.ankusa.admin.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ankusa.admin.json.Nodes;
import io.ankusa.admin.json.RegistryJson;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointRegistryException;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.RegisteredEndpoint;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A tenant's registered endpoints ({@link EndpointRegistry}): list and read them (viewer), add,
 * update, rotate a secret and remove (operator; each audited with the caller's principal). Every
 * call is the registry's, from memory; a refusal answers with the registry's reason code
 * ({@code invalid_url}, {@code address_refused}, {@code duplicate_id}, {@code unknown_endpoint}, …).
 */
final class RegistryRoutes {

    /** The overlap of a rotation that names none: a day, so that receivers have time to take the new secret. */
    static final Duration DEFAULT_OVERLAP = Duration.ofDays(1);

    private final EndpointRegistry registry;

    RegistryRoutes(EndpointRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    ApiResponse list(ApiRequest request) {
        String tenant = request.tenant();
        List<RegisteredEndpoint> endpoints = registry.endpoints(tenant);
        ObjectNode body = Nodes.object();
        body.put("tenant", tenant);
        boolean secrets = request.caller().operator();
        body.set("endpoints", Nodes.array(endpoints, e -> RegistryJson.endpoint(e, secrets)));
        return ApiResponse.ok(body);
    }

    ApiResponse get(ApiRequest request) {
        String tenant = request.tenant();
        String id = request.pathValue("id");
        RegisteredEndpoint endpoint = registry.endpoint(tenant, id).orElseThrow(() -> new ApiException(404,
                EndpointRegistryException.Reason.UNKNOWN_ENDPOINT.code(), "tenant '" + tenant
                        + "' has no registered endpoint '" + id + "'"));
        return ApiResponse.ok(RegistryJson.endpoint(endpoint, request.caller().operator()));
    }

    ApiResponse add(ApiRequest request) {
        String tenant = request.tenant();
        EndpointSpec spec = spec(request.body());
        RegisteredEndpoint added = refusing(() -> acting(request).add(tenant, spec));
        return Mutations.done(request, "endpoint-register", tenant, RegistryJson.endpoint(added, true));
    }

    ApiResponse update(ApiRequest request) {
        String tenant = request.tenant();
        String id = request.pathValue("id");
        EndpointSpec spec = spec(request.body());
        RegisteredEndpoint updated = refusing(() -> acting(request).update(tenant, id, spec));
        return Mutations.done(request, "endpoint-update", tenant, RegistryJson.endpoint(updated, true));
    }

    ApiResponse rotate(ApiRequest request) {
        String tenant = request.tenant();
        String id = request.pathValue("id");
        JsonNode seconds = request.body().get("overlapSeconds");
        Duration overlap;
        if (seconds == null || seconds.isNull()) {
            overlap = DEFAULT_OVERLAP;
        } else if (seconds.canConvertToLong() && seconds.isIntegralNumber() && seconds.longValue() >= 0
                && seconds.longValue() <= Duration.ofDays(3_650).toSeconds()) {
            overlap = Duration.ofSeconds(seconds.longValue());
        } else {
            throw ApiException.badRequest("overlapSeconds is a whole number of seconds, 0 .. 10 years");
        }
        RegisteredEndpoint rotated = refusing(() -> acting(request).rotate(tenant, id, overlap));
        return Mutations.done(request, "endpoint-rotate", tenant, RegistryJson.endpoint(rotated, true));
    }

    ApiResponse remove(ApiRequest request) {
        String tenant = request.tenant();
        String id = request.pathValue("id");
        refusing(() -> {
            acting(request).remove(tenant, id);
            return id;
        });
        ObjectNode result = Nodes.object();
        result.put("id", id);
        result.put("removed", true);
        return Mutations.done(request, "endpoint-remove", tenant, result);
    }

    private EndpointRegistry acting(ApiRequest request) {
        return registry.actingAs(Mutations.actor(request));
    }

    /** Runs a registry change, answering its refusal with the reason's code and status. */
    private static <T> T refusing(Supplier<T> change) {
        try {
            return change.get();
        } catch (EndpointRegistryException e) {
            throw new ApiException(status(e.reason()), e.reason().code(), e.getMessage());
        }
    }

    static int status(EndpointRegistryException.Reason reason) {
        return switch (reason) {
            case UNKNOWN_TENANT, UNKNOWN_ENDPOINT -> 404;
            case DUPLICATE_ID, NO_SINK_LEFT -> 409;
            case INVALID_TENANT, INVALID_ID, INVALID_URL, ADDRESS_REFUSED, INVALID_EVENT_TYPE, INVALID_SETTING -> 400;
        };
    }

    /**
     * The spec of a body {@code {"id", "url", "description", "eventTypes", "rateLimit", "maxInflight",
     * "headers", "metadata"}}; only {@code url} is required. An update replaces every field.
     */
    static EndpointSpec spec(JsonNode body) {
        if (!body.isObject()) {
            throw ApiException.badRequest("the body is a JSON object naming at least the endpoint's \"url\"");
        }
        EndpointSpec spec = EndpointSpec.of(url(body.get("url")))
                .withDescription(text(body, "description").orElse(""))
                .withEventTypes(texts(body.get("eventTypes")))
                .withLimits(count(body, "rateLimit"), count(body, "maxInflight"))
                .withHeaders(pairs(body, "headers"))
                .withMetadata(pairs(body, "metadata"));
        Optional<String> id = text(body, "id");
        return id.isPresent() ? spec.withId(id.get()) : spec;
    }

    private static URI url(JsonNode url) {
        if (url == null || !url.isTextual()) {
            throw new ApiException(400, EndpointRegistryException.Reason.INVALID_URL.code(),
                    "name the endpoint's \"url\", an absolute http or https URL");
        }
        try {
            return new URI(url.textValue());
        } catch (URISyntaxException e) {
            throw new ApiException(400, EndpointRegistryException.Reason.INVALID_URL.code(),
                    "the url is not a URL: " + e.getReason());
        }
    }

    private static Optional<String> text(JsonNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest(name + " is a string");
        }
        return Optional.of(value.textValue());
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array == null || array.isNull()) {
            return out;
        }
        if (!array.isArray()) {
            throw ApiException.badRequest("eventTypes is an array of strings");
        }
        for (JsonNode item : array) {
            if (!item.isTextual()) {
                throw ApiException.badRequest("eventTypes is an array of strings");
            }
            out.add(item.textValue());
        }
        return out;
    }

    private static int count(JsonNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return 0;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 0) {
            throw ApiException.badRequest(name + " is a whole number, 0 for no limit of its own");
        }
        return value.intValue();
    }

    private static Map<String, String> pairs(JsonNode body, String name) {
        JsonNode value = body.get(name);
        Map<String, String> out = new LinkedHashMap<>();
        if (value == null || value.isNull()) {
            return out;
        }
        if (!value.isObject()) {
            throw ApiException.badRequest(name + " is an object of strings");
        }
        for (Map.Entry<String, JsonNode> e : value.properties()) {
            if (!e.getValue().isTextual()) {
                throw ApiException.badRequest(name + " is an object of strings");
            }
            out.put(e.getKey(), e.getValue().textValue());
        }
        return out;
    }
}
