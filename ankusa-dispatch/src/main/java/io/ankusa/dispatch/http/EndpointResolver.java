package io.ankusa.dispatch.http;

import java.util.Objects;
import java.util.Optional;

/**
 * Finds the endpoint of a tenant's hooks for one sink: supplied by the application, which keeps
 * its customers' webhook URLs and secrets wherever it likes.
 *
 * <p>{@link HttpSink} caches what this returns per (tenant, sink), empty answers included, until
 * the application calls {@link HttpSink#invalidate(String)} or {@link HttpSink#invalidateAll()}
 * (after a customer changes its endpoint, rotates a secret or disables it). A lookup runs on a
 * cache miss, on the dispatcher's thread: keep it quick (an indexed read, an in-memory map).
 * An empty answer dead-letters the delivery with a reason starting {@value HttpSink#UNKNOWN_ENDPOINT};
 * a lookup that throws costs a retry ({@value HttpSink#ENDPOINT_LOOKUP_FAILED}) and is not cached.
 */
@FunctionalInterface
public interface EndpointResolver {

    /**
     * The endpoint of {@code tenantId}'s hooks for {@code sink}, or empty when there is none.
     *
     * @return the endpoint to post to, or empty when the tenant has none for this sink (the delivery goes to the dead
     *     letters)
     * @param tenantId the hook's tenant ({@code "default"} when the hook named none)
     * @param sink     the sink number, 0 .. 65 535
     */
    Optional<Endpoint> resolve(String tenantId, int sink);

    /**
     * Whether {@link HttpSink} may cache this resolver's answers until it is told to invalidate
     * them; {@code true} unless a resolver says otherwise. A resolver that answers from memory and
     * whose answers change by themselves (the {@link RegistryResolver}: secrets whose rotation
     * overlap ends) says {@code false}, and is asked on every delivery.
     *
     * @return whether answers may be cached
     */
    default boolean cacheable() {
        return true;
    }

    /**
     * The same endpoint for every tenant and sink: the one-URL case.
     *
     * @param endpoint the endpoint every delivery goes to
     * @return a resolver that always answers {@code endpoint}
     */
    static EndpointResolver fixed(Endpoint endpoint) {
        Objects.requireNonNull(endpoint, "endpoint");
        Optional<Endpoint> answer = Optional.of(endpoint);
        return (tenantId, sink) -> answer;
    }
}
