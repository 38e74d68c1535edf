package io.ankusa.api;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an application registers or updates of an endpoint: everything but its sink number, its
 * enabled state and its secrets, which the registry keeps. The registry validates it when it is
 * registered ({@link EndpointRegistryException}); this record only holds it.
 *
 * @param id          the endpoint's id, unique in its tenant; empty to have the registry generate one
 * @param url         where its deliveries are posted, an absolute {@code http} or {@code https} URL
 * @param description a note for people (at most 1 024 UTF-8 bytes); may be empty
 * @param eventTypes  the event types it subscribes to: exact names and {@code prefix.*} patterns; empty
 *                    subscribes to none (the endpoint then receives only hooks that name its sink)
 * @param rateLimit   the most deliveries per second it is sent, 0 for no limit of its own
 * @param maxInflight the most deliveries in flight to it at once, 0 for no limit of its own
 * @param headers     extra headers sent on every request to it, in this order
 * @param metadata    the application's own key–value pairs, stored and returned as given
 */
public record EndpointSpec(Optional<String> id, URI url, String description, List<String> eventTypes,
        int rateLimit, int maxInflight, Map<String, String> headers, Map<String, String> metadata) {

    /**
     * Copies the collections; checks for nulls only.
     *
     * @param id see the record's description
     * @param url see the record's description
     * @param description see the record's description
     * @param eventTypes see the record's description
     * @param rateLimit see the record's description
     * @param maxInflight see the record's description
     * @param headers see the record's description
     * @param metadata see the record's description
     */
    public EndpointSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(description, "description");
        eventTypes = List.copyOf(eventTypes);
        headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        metadata = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /**
     * An endpoint at {@code url} with a generated id, no description, no event types, no limits,
     * headers or metadata.
     *
     * @param url where its deliveries are posted
     * @return the spec
     */
    public static EndpointSpec of(URI url) {
        return new EndpointSpec(Optional.empty(), url, "", List.of(), 0, 0, Map.of(), Map.of());
    }

    /**
     * This spec with the id {@code endpointId}.
     *
     * @param endpointId the endpoint's id
     * @return a copy with the id
     */
    public EndpointSpec withId(String endpointId) {
        return new EndpointSpec(Optional.of(endpointId), url, description, eventTypes, rateLimit, maxInflight,
                headers, metadata);
    }

    /**
     * This spec with the URL {@code to}.
     *
     * @param to where deliveries are posted
     * @return a copy with the URL
     */
    public EndpointSpec withUrl(URI to) {
        return new EndpointSpec(id, to, description, eventTypes, rateLimit, maxInflight, headers, metadata);
    }

    /**
     * This spec with the description {@code text}.
     *
     * @param text the description
     * @return a copy with the description
     */
    public EndpointSpec withDescription(String text) {
        return new EndpointSpec(id, url, text, eventTypes, rateLimit, maxInflight, headers, metadata);
    }

    /**
     * This spec subscribed to {@code types} (exact names and {@code prefix.*}).
     *
     * @param types the event types
     * @return a copy with the event types
     */
    public EndpointSpec withEventTypes(List<String> types) {
        return new EndpointSpec(id, url, description, types, rateLimit, maxInflight, headers, metadata);
    }

    /**
     * This spec with a rate limit and an in-flight limit of its own (0: none).
     *
     * @param perSecond   the most deliveries per second
     * @param inFlight    the most deliveries in flight at once
     * @return a copy with the limits
     */
    public EndpointSpec withLimits(int perSecond, int inFlight) {
        return new EndpointSpec(id, url, description, eventTypes, perSecond, inFlight, headers, metadata);
    }

    /**
     * This spec with the extra headers {@code extra}.
     *
     * @param extra header name to value
     * @return a copy with the headers
     */
    public EndpointSpec withHeaders(Map<String, String> extra) {
        return new EndpointSpec(id, url, description, eventTypes, rateLimit, maxInflight, extra, metadata);
    }

    /**
     * This spec with the metadata {@code pairs}.
     *
     * @param pairs key to value
     * @return a copy with the metadata
     */
    public EndpointSpec withMetadata(Map<String, String> pairs) {
        return new EndpointSpec(id, url, description, eventTypes, rateLimit, maxInflight, headers, pairs);
    }
}
