package io.ankusa.dispatch.http;

import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointSecret;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.queue.Queue;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link EndpointResolver} over the queue's endpoint registry ({@link Queue#endpointRegistry()}):
 * a delivery for (tenant, sink) goes to the endpoint registered under that sink, signed by every
 * secret it has now, with its extra headers; a sink with no endpoint registered (or a removed one)
 * has none, and its delivery is dead-lettered as unknown.
 *
 * <p>{@link #registry()} is the registry with this resolver's {@link AddressGuard} checking each URL
 * when it is registered or changed ({@code address_refused}); the guard checks the addresses again
 * at every connection, as for any endpoint. Answers are not cached by {@link HttpSink}
 * ({@link #cacheable()}): the registry is in memory already, and a secret whose rotation overlap
 * ended must stop signing at once, so every delivery reads the registry as it is then.
 */
public final class RegistryResolver implements EndpointResolver {

    private final EndpointRegistry registry;

    private RegistryResolver(EndpointRegistry registry) {
        this.registry = registry;
    }

    /**
     * The resolver over {@code queue}'s registry, registering with {@link AddressGuard#publicOnly()}.
     *
     * @param queue the queue whose registry to read
     * @return the resolver
     */
    public static RegistryResolver of(Queue queue) {
        return of(queue, AddressGuard.publicOnly());
    }

    /**
     * The resolver over {@code queue}'s registry; {@link #registry()} refuses what {@code guard} refuses.
     * Give it the guard of the {@link WebhookClient} that sends, so registration and connection agree.
     *
     * @param queue the queue whose registry to read
     * @param guard the addresses endpoints may be registered at
     * @return the resolver
     */
    public static RegistryResolver of(Queue queue, AddressGuard guard) {
        Objects.requireNonNull(guard, "guard");
        return new RegistryResolver(Objects.requireNonNull(queue, "queue").endpointRegistry()
                .withAddressCheck(guard::refusal));
    }

    /**
     * The registry to register, change, rotate and remove endpoints through: the queue's, with this
     * resolver's address check.
     *
     * @return the checked registry
     */
    public EndpointRegistry registry() {
        return registry;
    }

    @Override
    public Optional<Endpoint> resolve(String tenantId, int sink) {
        return registry.endpoint(tenantId, sink).map(RegistryResolver::endpoint);
    }

    /** {@code false}: every delivery reads the registry (in memory), so an ended secret stops signing at once. */
    @Override
    public boolean cacheable() {
        return false;
    }

    private static Endpoint endpoint(RegisteredEndpoint registered) {
        List<WebhookSecret> secrets = registered.secrets().stream().map(EndpointSecret::secret)
                .map(WebhookSecret::parse).toList();
        return new Endpoint(registered.url(), secrets, registered.headers(), registered.enabled());
    }
}
