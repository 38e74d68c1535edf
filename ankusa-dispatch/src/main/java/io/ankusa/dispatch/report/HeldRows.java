package io.ankusa.dispatch.report;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The due rows a pipeline holds back for one reason, by design: they wait on their tenant's limits
 * or on their endpoint, not on the node. They never turn the node's health down
 * ({@link DispatchHealth}).
 *
 * @param hold         why they wait (never {@link TenantDispatch.Hold#NONE})
 * @param tenants      tenants held for that reason now
 * @param rows         rows those tenants have waiting (first attempts and retries), read from the counters of
 *                     at most {@link #ROWS_COUNTED} of them, oldest first
 * @param rowsComplete whether {@code rows} covers every held tenant ({@code tenants <= ROWS_COUNTED})
 * @param oldestAge    how long the oldest of those tenants' due rows has been due, as the scheduler knows it; empty
 *                     when it knows none
 */
public record HeldRows(TenantDispatch.Hold hold, long tenants, long rows, boolean rowsComplete,
        Optional<Duration> oldestAge) {

    /** Held tenants whose counters one measurement reads per reason. */
    public static final int ROWS_COUNTED = 64;

    /**
     * Validates.
     *
     * @param hold why they wait (never {@link TenantDispatch.Hold#NONE})
     * @param tenants tenants held for that reason now
     * @param rows rows those tenants have waiting, read from the counters of at most {@link #ROWS_COUNTED} of them
     * @param rowsComplete whether {@code rows} covers every held tenant
     * @param oldestAge how long the oldest of those tenants' due rows has been due; empty when none is known
     */
    public HeldRows {
        Objects.requireNonNull(hold, "hold");
        Objects.requireNonNull(oldestAge, "oldestAge");
        if (hold == TenantDispatch.Hold.NONE) {
            throw new IllegalArgumentException("rows held for no reason are not held");
        }
    }
}
