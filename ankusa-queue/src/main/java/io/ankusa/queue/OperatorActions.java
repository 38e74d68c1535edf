package io.ankusa.queue;

import io.ankusa.api.AuditEntry;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.ErasureResult;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.api.QuarantineResult;
import java.util.Set;

/**
 * A queue's audited changes made on behalf of one principal: each does what the {@link Queue}
 * method of the same name does, and its audit entry names {@link #actor()} ({@link AuditEntry#actor()}).
 * {@link Queue#actingAs} hands one out; it holds no state but the actor, so it may be kept, shared
 * between threads, or made per request. Nothing else changes: a call audited with an actor is the
 * same call, with the same cost, as the one on the queue.
 */
public interface OperatorActions {

    /**
     * The principal these changes are recorded with.
     *
     * @return the actor's name
     */
    String actor();

    /**
     * {@link Queue#purgeTenant}, audited with {@link #actor()}.
     *
     * @param tenant the tenant whose rows to remove
     * @param kinds  which rows: due deliveries, dead letters or both; not empty
     * @return how many rows, bytes and hooks were removed
     */
    PurgeResult purgeTenant(String tenant, Set<PurgeKind> kinds);

    /**
     * {@link Queue#releaseQuarantine}, audited with {@link #actor()}.
     *
     * @param tenant the tenant whose quarantined deliveries to release
     * @return how many deliveries were released, and their bytes
     */
    QuarantineResult releaseQuarantine(String tenant);

    /**
     * {@link Queue#purgeQuarantine}, audited with {@link #actor()}.
     *
     * @param tenant the tenant whose quarantined deliveries to delete
     * @return how many deliveries were deleted, and their bytes
     */
    QuarantineResult purgeQuarantine(String tenant);

    /**
     * {@link Queue#enableEndpoint}, audited with {@link #actor()}.
     *
     * @param tenant the tenant
     * @param sink   the sink number, 0..65 535
     * @return its state now (active)
     */
    EndpointStatus enableEndpoint(String tenant, int sink);

    /**
     * {@link Queue#disableEndpoint}, audited with {@link #actor()}.
     *
     * @param tenant the tenant
     * @param sink   the sink number, 0..65 535
     * @return its state now (disabled)
     */
    EndpointStatus disableEndpoint(String tenant, int sink);

    /**
     * {@link Queue#endpointRegistry}, whose changes are audited with {@link #actor()}.
     *
     * @return the registry, {@link EndpointRegistry#actingAs acting as} this actor
     */
    EndpointRegistry endpointRegistry();

    /**
     * {@link Queue#eraseTenant}, audited with {@link #actor()}.
     *
     * @param tenant the tenant to erase
     * @return what was erased, by kind, or {@link ErasureResult#none} for an unknown tenant
     */
    ErasureResult eraseTenant(String tenant);
}
