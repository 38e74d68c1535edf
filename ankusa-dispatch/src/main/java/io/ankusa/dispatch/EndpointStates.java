package io.ankusa.dispatch;

import io.ankusa.api.events.EndpointState;
import io.ankusa.api.events.EndpointStateChanged;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The endpoint states the pipeline observed, to publish {@link EndpointStateChanged} on a change
 * only. Holds only endpoints not {@link EndpointState#ACTIVE} (at most {@value #MAX} of them; past
 * that an arbitrary one is forgotten and would publish its change again). Settler thread only.
 */
final class EndpointStates {

    static final int MAX = 65_536;

    private record Endpoint(String tenant, int sink) {
    }

    private final Map<Endpoint, EndpointState> notActive = new HashMap<>();

    /** The change {@code outcome} makes to the endpoint of {@code (tenant, sink)}, if any. */
    Optional<EndpointStateChanged> observe(String tenant, int sink, SinkOutcome outcome) {
        EndpointState now;
        if (outcome instanceof SinkOutcome.EndpointGone) {
            now = EndpointState.GONE;
        } else if (outcome instanceof SinkOutcome.EndpointDisabled) {
            now = EndpointState.DISABLED;
        } else if (outcome instanceof SinkOutcome.Delivered) {
            now = EndpointState.ACTIVE;
        } else {
            return Optional.empty();
        }
        Endpoint endpoint = new Endpoint(tenant, sink);
        EndpointState before = notActive.getOrDefault(endpoint, EndpointState.ACTIVE);
        if (before == now) {
            return Optional.empty();
        }
        if (now == EndpointState.ACTIVE) {
            notActive.remove(endpoint);
        } else {
            if (notActive.size() >= MAX) {
                notActive.remove(notActive.keySet().iterator().next());
            }
            notActive.put(endpoint, now);
        }
        return Optional.of(new EndpointStateChanged(tenant, sink, before, now, outcome.reason()));
    }
}
