package io.ankusa.micrometer;

import io.ankusa.dispatch.report.TenantPending;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.List;

/**
 * The {@code ankusa.tenant.pending{tenant}} series of one registry: exactly the tenants of the last
 * snapshot's top N; a tenant that leaves it has its series removed ({@link MultiGauge} with
 * overwrite).
 */
final class TopTenants {

    private final MultiGauge pending;

    TopTenants(MeterRegistry registry, Tags common) {
        this.pending = MultiGauge.builder("ankusa.tenant.pending")
                .description("Pending rows of the top tenants by pending (at most topTenants series)")
                .tags(common).register(registry);
    }

    void follow(GaugeSnapshots snapshots) {
        snapshots.follow(this::update);
    }

    private void update(List<TenantPending> top) {
        pending.register(top.stream()
                .<MultiGauge.Row<?>>map(t -> MultiGauge.Row.of(Tags.of("tenant", t.tenantId()), t.pending()))
                .toList(), true);
    }
}
