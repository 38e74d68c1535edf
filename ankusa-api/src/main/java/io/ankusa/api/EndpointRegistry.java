package io.ankusa.api;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Each tenant's registered endpoints, kept in the queue's store (docs/delivery.md, "Endpoints and
 * event types"). Every change is one synced write and one audit entry; a refused change writes
 * nothing and throws {@link EndpointRegistryException}. Changes apply to hooks ingested after
 * them: a hook's delivery rows name the sinks they were written for. Thread-safe.
 */
public interface EndpointRegistry {

    /**
     * Registers an endpoint for {@code tenant}, with a new signing secret and the tenant's next sink number.
     *
     * @param tenant the tenant id
     * @param spec   the endpoint; an empty id is generated
     * @return the endpoint as registered
     * @throws EndpointRegistryException for an invalid tenant, id, URL, event type or setting, a refused
     *                                   address, or an id the tenant has already
     */
    RegisteredEndpoint add(String tenant, EndpointSpec spec);

    /**
     * Replaces endpoint {@code id}'s URL, description, event types, limits, headers and metadata
     * with {@code spec}'s; its sink, secrets and enabled state stay.
     *
     * @param tenant the tenant id
     * @param id     the endpoint's id
     * @param spec   the new settings; its id must be empty or {@code id}
     * @return the endpoint as it is now
     * @throws EndpointRegistryException for an unknown tenant or endpoint, or settings {@link #add} refuses
     */
    RegisteredEndpoint update(String tenant, String id, EndpointSpec spec);

    /**
     * Adds a new signing secret to endpoint {@code id}; every secret it had keeps signing until
     * {@code overlap} from now (by the queue's clock; one that ends sooner keeps its end) and then
     * stops by itself. Both signatures are sent meanwhile.
     *
     * @param tenant  the tenant id
     * @param id      the endpoint's id
     * @param overlap how long the old secrets keep signing; zero drops them at once
     * @return the endpoint as it is now, the new secret last
     * @throws EndpointRegistryException for an unknown tenant or endpoint
     * @throws IllegalArgumentException  for a negative overlap
     */
    RegisteredEndpoint rotate(String tenant, String id, Duration overlap);

    /**
     * Removes endpoint {@code id}: hooks ingested after this no longer go to it, and its sink
     * number is never given to another endpoint.
     *
     * @param tenant the tenant id
     * @param id     the endpoint's id
     * @throws EndpointRegistryException for an unknown tenant or endpoint
     */
    void remove(String tenant, String id);

    /**
     * Endpoint {@code id} of {@code tenant}.
     *
     * @param tenant the tenant id
     * @param id     the endpoint's id
     * @return the endpoint, or empty when the tenant has none of that id
     */
    Optional<RegisteredEndpoint> endpoint(String tenant, String id);

    /**
     * The endpoint of {@code tenant} registered under sink number {@code sink}.
     *
     * @param tenant the tenant id
     * @param sink   the sink number
     * @return the endpoint, or empty when none is registered under that sink
     */
    Optional<RegisteredEndpoint> endpoint(String tenant, int sink);

    /**
     * Every endpoint of {@code tenant}, by sink number.
     *
     * @param tenant the tenant id
     * @return the endpoints; empty for a tenant with none
     */
    List<RegisteredEndpoint> endpoints(String tenant);

    /**
     * This registry, refusing a URL that {@code refusal} refuses when an endpoint is added or its
     * URL updated ({@link EndpointRegistryException.Reason#ADDRESS_REFUSED}): the dispatcher's SSRF
     * guard, for one.
     *
     * @param refusal the reason a URL is refused, or empty when it passes
     * @return a registry over the same endpoints that checks addresses too
     */
    EndpointRegistry withAddressCheck(Function<URI, Optional<String>> refusal);

    /**
     * This registry, recording {@code actor} in the audit entry of every change made through it
     * ({@link AuditEntry#actor()}); a registry that was not given one records none. The address
     * check, if any, is kept.
     *
     * @param actor the principal making the changes, as {@link AuditEntry#requireActor} accepts it
     * @return a registry over the same endpoints whose changes name {@code actor}
     * @throws IllegalArgumentException when {@code actor} cannot name a principal
     */
    EndpointRegistry actingAs(String actor);
}
