package io.ankusa.api;

import java.util.Map;
import java.util.Objects;

/**
 * The application's tenant policies: the policy of a tenant id. Called from the queue's own
 * threads (the ingest writer, the scheduler) on a cache miss, so it must be quick and must not
 * block; the queue caches each answer until told the tenant's policy changed.
 */
@FunctionalInterface
public interface TenantPolicies {

    /**
     * The policy of a tenant.
     *
     * @param tenant the tenant id
     * @return its policy, never {@code null}
     */
    TenantPolicy policyFor(String tenant);

    /**
     * The same policy for every tenant.
     *
     * @param policy the policy
     * @return policies that answer {@code policy} for every tenant
     */
    static TenantPolicies uniform(TenantPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        return tenant -> policy;
    }

    /**
     * A default and named exceptions.
     *
     * @param fallback  the policy of every tenant {@code overrides} does not name
     * @param overrides policies by tenant id
     * @return policies answering {@code overrides} for the tenants they name, {@code fallback} for every other
     */
    static TenantPolicies of(TenantPolicy fallback, Map<String, TenantPolicy> overrides) {
        Objects.requireNonNull(fallback, "fallback");
        Map<String, TenantPolicy> copy = Map.copyOf(overrides);
        return tenant -> copy.getOrDefault(tenant, fallback);
    }
}
