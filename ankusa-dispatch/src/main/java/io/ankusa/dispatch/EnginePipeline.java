package io.ankusa.dispatch;

import io.ankusa.api.events.QueueListener;
import io.ankusa.dispatch.engine.DispatchPipeline;
import io.ankusa.dispatch.report.DispatchHealth;
import io.ankusa.dispatch.report.DueTenants;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.OrderedKey;
import io.ankusa.dispatch.report.TenantDispatch;
import io.ankusa.dispatch.report.TenantHealth;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.report.TroubledTenants;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The {@link Pipeline} a builder returns: the entry point's contract over the engine's
 * {@link DispatchPipeline}, which holds the threads and the state. Kept apart so that the engine
 * never imports the entry points.
 */
final class EnginePipeline implements Pipeline {

    private final DispatchPipeline engine;

    EnginePipeline(DispatchPipeline engine) {
        this.engine = engine;
    }

    @Override
    public Pipeline start() {
        engine.start();
        return this;
    }

    @Override
    public CompletionStage<TickReport> tick() {
        return engine.tick();
    }

    @Override
    public Gauges gauges() {
        return engine.gauges();
    }

    @Override
    public Optional<TenantDispatch> tenantDispatch(String tenant) {
        return engine.tenantDispatch(tenant);
    }

    @Override
    public List<OrderedKey> orderedKeys(String tenant, int limit) {
        return engine.orderedKeys(tenant, limit);
    }

    @Override
    public DueTenants dueTenants(long after, int limit) {
        return engine.dueTenants(after, limit);
    }

    @Override
    public DispatchHealth dispatchHealth() {
        return engine.dispatchHealth();
    }

    @Override
    public Optional<TenantHealth> tenantHealth(String tenant) {
        return engine.tenantHealth(tenant);
    }

    @Override
    public TroubledTenants troubledTenants(int limit) {
        return engine.troubledTenants(limit);
    }

    @Override
    public long eventsDropped() {
        return engine.eventsDropped();
    }

    @Override
    public void addListener(QueueListener listener) {
        engine.addListener(listener);
    }

    @Override
    public void close() {
        engine.close();
    }
}
