package io.ankusa.queue;

import io.ankusa.api.AuditEntry;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.ErasureResult;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.api.QuarantineResult;
import io.ankusa.queue.engine.QueueEngine;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** The {@link OperatorActions} of {@link Queue#actingAs}: the engine's calls, each given the actor. */
final class EngineOperations implements OperatorActions {

    private final QueueEngine engine;
    private final String actor;

    EngineOperations(QueueEngine engine, String actor) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.actor = AuditEntry.requireActor(actor);
    }

    @Override
    public String actor() {
        return actor;
    }

    @Override
    public PurgeResult purgeTenant(String tenant, Set<PurgeKind> kinds) {
        return engine.purgeTenant(tenant, kinds, Optional.of(actor));
    }

    @Override
    public QuarantineResult releaseQuarantine(String tenant) {
        return engine.releaseQuarantine(tenant, Optional.of(actor));
    }

    @Override
    public QuarantineResult purgeQuarantine(String tenant) {
        return engine.purgeQuarantine(tenant, Optional.of(actor));
    }

    @Override
    public EndpointStatus enableEndpoint(String tenant, int sink) {
        return engine.enableEndpoint(tenant, sink, Optional.of(actor));
    }

    @Override
    public EndpointStatus disableEndpoint(String tenant, int sink) {
        return engine.disableEndpoint(tenant, sink, Optional.of(actor));
    }

    @Override
    public EndpointRegistry endpointRegistry() {
        return engine.endpointRegistry().actingAs(actor);
    }

    @Override
    public ErasureResult eraseTenant(String tenant) {
        return engine.eraseTenant(tenant, Optional.of(actor));
    }
}
