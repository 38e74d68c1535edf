package io.ankusa.dispatch.report;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One tenant's health as a pipeline sees it: whether it is held back and why, how long its oldest
 * due row has waited, and how its recent attempts went. Read with
 * {@link io.ankusa.dispatch.Pipeline#tenantHealth(String)} or as one of the
 * {@link io.ankusa.dispatch.Pipeline#troubledTenants(int) troubled tenants}.
 *
 * @param tenantId       the tenant
 * @param hold           whether the scheduler holds it back, and by what ({@link TenantDispatch.Hold#NONE} also
 *                       when it has nothing due)
 * @param oldestDueAge   how long its oldest due row has been due, as the scheduler knows it; empty when none
 * @param recentAttempts attempts of its deliveries that ended in the last one to two minutes (the current and the
 *                       previous minute of the scheduler's clock)
 * @param recentFailures those of them that did not deliver (a retry or a dead letter)
 */
public record TenantHealth(String tenantId, TenantDispatch.Hold hold, Optional<Duration> oldestDueAge,
        long recentAttempts, long recentFailures) {

    /**
     * Validates.
     *
     * @param tenantId the tenant
     * @param hold whether the scheduler holds it back, and by what
     * @param oldestDueAge how long its oldest due row has been due; empty when none
     * @param recentAttempts attempts that ended in the last one to two minutes
     * @param recentFailures those of them that did not deliver
     */
    public TenantHealth {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(hold, "hold");
        Objects.requireNonNull(oldestDueAge, "oldestDueAge");
        if (recentFailures < 0 || recentFailures > recentAttempts) {
            throw new IllegalArgumentException("failures " + recentFailures + " of " + recentAttempts + " attempts");
        }
    }

    /** {@return the share of its recent attempts that failed, 0 when it had none} */
    public double failureRate() {
        return recentAttempts == 0 ? 0 : (double) recentFailures / recentAttempts;
    }
}
