package io.ankusa.queue.admission;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The application's {@link TenantPolicies}, cached: each tenant's policy is asked once and kept
 * until {@link #invalidate(String)} or {@link #invalidateAll()} (the queue's
 * {@code tenantPolicyChanged}). Read by the ingest writer and the scheduler from their own
 * threads; thread-safe.
 *
 * <p>Bounded like the writer's ordinal cache: past {@value #CAPACITY} tenants it is cleared whole
 * (a miss is one call to the application's resolver). An invalidation that races a miss wins: the
 * {@link #generation() generation} is read before the resolver is asked, and an answer obtained
 * across an invalidation is returned but not kept.
 */
public final class PolicyCache {

    /** Most tenants cached before the cache is cleared. */
    public static final int CAPACITY = 65_536;

    private final TenantPolicies source;
    private final ConcurrentHashMap<String, TenantPolicy> cached = new ConcurrentHashMap<>();
    private final AtomicLong generation = new AtomicLong();

    /** A cache over the application's policies. */
    public PolicyCache(TenantPolicies source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    /**
     * The policy of {@code tenant}.
     *
     * @throws AnkusaException ({@code tenant_policy}) when the application's resolver throws or
     *                         answers {@code null}; nothing is cached then
     */
    public TenantPolicy policyFor(String tenant) {
        TenantPolicy policy = cached.get(tenant);
        if (policy != null) {
            return policy;
        }
        long before = generation.get();
        try {
            policy = source.policyFor(tenant);
        } catch (RuntimeException e) {
            throw new AnkusaException("tenant_policy", "the tenant policy of '" + tenant + "' could not be read: " + e,
                    e);
        }
        if (policy == null) {
            throw new AnkusaException("tenant_policy", "the tenant policies answered null for '" + tenant + "'");
        }
        if (cached.size() >= CAPACITY) {
            cached.clear();
        }
        cached.put(tenant, policy);
        if (generation.get() != before) {
            cached.remove(tenant, policy);
        }
        return policy;
    }

    /** Forgets {@code tenant}'s policy: the next read asks the application again. */
    public void invalidate(String tenant) {
        generation.incrementAndGet();
        cached.remove(Objects.requireNonNull(tenant, "tenant"));
    }

    /** Forgets every tenant's policy. */
    public void invalidateAll() {
        generation.incrementAndGet();
        cached.clear();
    }

    /**
     * Grows by one at every invalidation: a holder of per-tenant state built from a policy (a
     * bucket, a quantum) compares it to know when to read the policy again.
     */
    public long generation() {
        return generation.get();
    }
}
