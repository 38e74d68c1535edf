package io.ankusa.dispatch.report;

import java.util.List;

/**
 * The tenants an operator looks at first: the top N by oldest due age and the top N by recent
 * failure rate, so the node's health says which tenant is in trouble at a bounded cardinality.
 *
 * @param byOldestDue   up to N tenants with the oldest due rows, oldest first
 * @param byFailureRate up to N tenants with the highest failure rate among those with at least
 *                      {@link #MIN_ATTEMPTS} recent attempts and one failure, highest first
 */
public record TroubledTenants(List<TenantHealth> byOldestDue, List<TenantHealth> byFailureRate) {

    /** Recent attempts a tenant needs before its failure rate ranks it (one failed attempt of one is noise). */
    public static final int MIN_ATTEMPTS = 5;

    /**
     * Copies the lists.
     *
     * @param byOldestDue up to N tenants with the oldest due rows, oldest first
     * @param byFailureRate up to N tenants with the highest failure rate, highest first
     */
    public TroubledTenants {
        byOldestDue = List.copyOf(byOldestDue);
        byFailureRate = List.copyOf(byFailureRate);
    }
}
