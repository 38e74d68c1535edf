package io.ankusa.micrometer;

import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.TenantPending;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code ankusa.tenant.pending{tenant}} series of one registry: exactly the tenants of the last
 * snapshot's top N; a tenant that leaves it has its series removed ({@link MultiGauge}); one that
 * stays keeps its meter, whose value follows the last update (re-registering every row would remove
 * and add meters while a scrape reads them).
 */
final class TopTenants {

    private final MultiGauge pending;
    private volatile Map<String, Long> kept = Map.of();

    TopTenants(MeterRegistry registry, Tags common) {
        this.pending = MultiGauge.builder("ankusa.tenant.pending")
                .description("Pending rows of the top tenants by pending (at most topTenants series)")
                .tags(common).register(registry);
    }

    void follow(Snapshots<Gauges, List<TenantPending>> snapshots) {
        snapshots.follow(this::update);
    }

    private void update(List<TenantPending> top) {
        // A gauge holds its object weakly (a boxed count would be collected): the rows read their
        // values from this object's last update, which its registry's meters keep.
        Map<String, Long> counts = new HashMap<>();
        top.forEach(t -> counts.put(t.tenantId(), t.pending()));
        kept = counts;
        pending.register(counts.keySet().stream()
                .<MultiGauge.Row<?>>map(tenant -> MultiGauge.Row.of(Tags.of("tenant", tenant), this,
                        t -> t.kept.getOrDefault(tenant, 0L)))
                .toList(), false);
    }
}
