package io.ankusa.dispatch.http;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What an {@link EndpointResolver} answered, per (tenant, sink), until invalidated. Bounded: when
 * it holds {@code capacity} entries it starts again empty, which costs lookups, never correctness.
 */
final class EndpointCache {

    private record Key(String tenantId, int sink) {
    }

    private final EndpointResolver resolver;
    private final int capacity;
    private final ConcurrentHashMap<Key, Optional<Endpoint>> answers = new ConcurrentHashMap<>();
    /** Bumped by every invalidation, so a lookup that raced one is used once but not cached. */
    private final AtomicLong generation = new AtomicLong();

    EndpointCache(EndpointResolver resolver, int capacity) {
        this.resolver = resolver;
        this.capacity = capacity;
    }

    /** The cached answer, or the resolver's (cached unless it throws or the resolver is not cacheable). */
    Optional<Endpoint> endpoint(String tenantId, int sink) {
        if (!resolver.cacheable()) {
            return checked(resolver.resolve(tenantId, sink));
        }
        Key key = new Key(tenantId, sink);
        Optional<Endpoint> cached = answers.get(key);
        if (cached != null) {
            return cached;
        }
        long before = generation.get();
        Optional<Endpoint> answer = checked(resolver.resolve(tenantId, sink));
        if (answers.size() >= capacity) {
            answers.clear();
        }
        answers.put(key, answer);
        if (generation.get() != before) {
            answers.remove(key, answer);
        }
        return answer;
    }

    private static Optional<Endpoint> checked(Optional<Endpoint> answer) {
        if (answer == null) {
            throw new IllegalStateException("the endpoint resolver returned null instead of an Optional");
        }
        return answer;
    }

    void invalidate(String tenantId) {
        generation.incrementAndGet();
        answers.keySet().removeIf(key -> key.tenantId().equals(tenantId));
    }

    void invalidateAll() {
        generation.incrementAndGet();
        answers.clear();
    }
}
