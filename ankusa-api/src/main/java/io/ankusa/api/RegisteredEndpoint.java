package io.ankusa.api;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An endpoint as the registry holds it: the {@link EndpointSpec} it was given, the sink number
 * its deliveries carry, whether it is enabled (the stored endpoint state the breaker, a
 * {@code 410} and operators write) and the secrets that sign its requests now (expired ones left
 * out). {@link #toString()} never shows a secret, header value or metadata value.
 *
 * @param tenant      the tenant id
 * @param id          the endpoint's id, unique in its tenant
 * @param sink        the sink number its delivery rows carry, given at registration and never reused
 * @param url         where its deliveries are posted
 * @param description a note for people
 * @param eventTypes  the event types it subscribes to (exact names and {@code prefix.*})
 * @param rateLimit   the most deliveries per second, 0 for none of its own
 * @param maxInflight the most deliveries in flight at once, 0 for none of its own
 * @param headers     extra headers sent on every request
 * @param metadata    the application's key–value pairs
 * @param secrets     the secrets signing its requests now, oldest first
 * @param enabled     whether its deliveries are sent
 */
public record RegisteredEndpoint(String tenant, String id, int sink, URI url, String description,
        List<String> eventTypes, int rateLimit, int maxInflight, Map<String, String> headers,
        Map<String, String> metadata, List<EndpointSecret> secrets, boolean enabled) {

    /**
     * Copies the collections.
     *
     * @param tenant see the record's description
     * @param id see the record's description
     * @param sink see the record's description
     * @param url see the record's description
     * @param description see the record's description
     * @param eventTypes see the record's description
     * @param rateLimit see the record's description
     * @param maxInflight see the record's description
     * @param headers see the record's description
     * @param metadata see the record's description
     * @param secrets see the record's description
     * @param enabled see the record's description
     */
    public RegisteredEndpoint {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(description, "description");
        eventTypes = List.copyOf(eventTypes);
        headers = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(headers));
        metadata = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metadata));
        secrets = List.copyOf(secrets);
    }

    /**
     * Whether the endpoint subscribes to {@code eventType}: an exact name in {@link #eventTypes}, or
     * a {@code prefix.*} pattern whose prefix and full stop begin it.
     *
     * @param eventType the hook's event type
     * @return whether a hook of that type goes to this endpoint
     */
    public boolean subscribes(String eventType) {
        for (String filter : eventTypes) {
            if (filter.endsWith(".*")
                    ? eventType.startsWith(filter.substring(0, filter.length() - 1))
                    : filter.equals(eventType)) {
                return true;
            }
        }
        return false;
    }

    /** Everything but secrets, header values and metadata values. */
    @Override
    public String toString() {
        return "RegisteredEndpoint[tenant=" + tenant + ", id=" + id + ", sink=" + sink + ", url=" + url
                + ", eventTypes=" + eventTypes + ", enabled=" + enabled + ", secrets=" + secrets.size()
                + ", headers=" + headers.keySet() + ", metadata=" + metadata.keySet() + "]";
    }
}
