package io.ankusa.api;

import io.ankusa.api.events.EndpointState;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The stored state of one endpoint, a tenant's sink: disabled (why, since when), or active and
 * failing since a time. Endpoints that are active and not failing have no stored state and are
 * not listed.
 *
 * @param tenant        the tenant ({@code #<ordinal>} for an erased one)
 * @param sink          the sink number
 * @param state         active or disabled
 * @param reason        why it is disabled; empty when active
 * @param disabledSince when it was disabled; empty when active
 * @param failingSince  the first failed attempt after its last success; empty when none failed since
 */
public record EndpointStatus(String tenant, int sink, EndpointState state, Optional<EndpointDisableReason> reason,
        Optional<Instant> disabledSince, Optional<Instant> failingSince) {

    /**
     * Checks the fields: a disabled endpoint has a reason and a time, an active one neither.
     *
     * @param tenant        the tenant
     * @param sink          the sink number
     * @param state         active or disabled
     * @param reason        why it is disabled; empty when active
     * @param disabledSince when it was disabled; empty when active
     * @param failingSince  the first failed attempt after its last success; empty when none failed since
     */
    public EndpointStatus {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(disabledSince, "disabledSince");
        Objects.requireNonNull(failingSince, "failingSince");
        boolean disabled = state == EndpointState.DISABLED;
        if (reason.isPresent() != disabled || disabledSince.isPresent() != disabled) {
            throw new IllegalArgumentException("a disabled endpoint has a reason and a time, an active one neither");
        }
    }
}
