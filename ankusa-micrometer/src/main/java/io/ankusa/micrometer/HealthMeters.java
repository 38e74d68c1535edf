package io.ankusa.micrometer;

import io.ankusa.dispatch.report.HeldRows;
import io.ankusa.dispatch.report.TenantDispatch.Hold;
import io.ankusa.dispatch.report.TroubledTenants;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * A pipeline's health meters in one registry: the deliverable backlog's age, the held rows by
 * reason (one series per reason: a fixed, small set), and the troubled tenants' series
 * ({@code ankusa.tenant.oldest.due.age{tenant}}, {@code ankusa.tenant.failure.rate{tenant}}),
 * exactly the tenants of the last snapshot's top N each, a tenant that leaves it removed
 * ({@link MultiGauge}: rows no longer there are removed; a tenant that stays keeps its meter, whose
 * value follows the last update — re-registering every row would remove and add meters while a
 * scrape reads them).
 */
final class HealthMeters {

    private final MeterRegistry registry;
    private final Tags common;
    private final Supplier<Snapshots<HealthSnapshot, TroubledTenants>> snapshots;
    private final MultiGauge oldestDue;
    private final MultiGauge failureRate;
    private volatile Map<String, Double> keptAges = Map.of();
    private volatile Map<String, Double> keptRates = Map.of();

    HealthMeters(MeterRegistry registry, Tags common, Supplier<Snapshots<HealthSnapshot, TroubledTenants>> snapshots) {
        this.registry = registry;
        this.common = common;
        this.snapshots = snapshots;
        this.oldestDue = MultiGauge.builder("ankusa.tenant.oldest.due.age").baseUnit("seconds")
                .description("How long the oldest due row of the top tenants by it has been due (at most topTenants "
                        + "series)")
                .tags(common).register(registry);
        this.failureRate = MultiGauge.builder("ankusa.tenant.failure.rate")
                .description("Share of the last one to two minutes' attempts that failed, of the top tenants by it "
                        + "(at most topTenants series)")
                .tags(common).register(registry);
    }

    void bind() {
        TimeGauge.builder("ankusa.backlog.deliverable.age", this, TimeUnit.MILLISECONDS,
                m -> m.read(h -> millis(h.health().oldestDeliverableAge())))
                .description("How long the oldest row the node should be delivering now has been due (held rows "
                        + "left out); 0 when none")
                .tags(common).register(registry);
        for (Hold hold : Hold.values()) {
            if (hold == Hold.NONE) {
                continue;
            }
            Tags tags = common.and("reason", hold.name().toLowerCase(Locale.ROOT));
            Gauge.builder("ankusa.held.tenants", this, m -> m.read(h -> h.health().held(hold)
                    .map(HeldRows::tenants).orElse(0L)))
                    .description("Tenants whose due rows the scheduler holds back, by reason").tags(tags)
                    .register(registry);
            Gauge.builder("ankusa.held.rows", this, m -> m.read(h -> h.health().held(hold)
                    .map(HeldRows::rows).orElse(0L)))
                    .description("Rows waiting in tenants held back, by reason (counted for up to 64 tenants each)")
                    .tags(tags).register(registry);
            TimeGauge.builder("ankusa.held.age", this, TimeUnit.MILLISECONDS, m -> m.read(h -> millis(
                    h.health().held(hold).flatMap(HeldRows::oldestAge))))
                    .description("How long the oldest held row has been due, by reason").tags(tags).register(registry);
        }
    }

    void follow(Snapshots<HealthSnapshot, TroubledTenants> current) {
        current.follow(this::update);
    }

    private void update(TroubledTenants troubled) {
        // A gauge holds its object weakly: the rows read their values from this binder's last
        // update (which the binder keeps), not from objects of their own.
        Map<String, Double> ages = new HashMap<>();
        troubled.byOldestDue().forEach(t -> ages.put(t.tenantId(), millis(t.oldestDueAge()) / 1000.0));
        Map<String, Double> rates = new HashMap<>();
        troubled.byFailureRate().forEach(t -> rates.put(t.tenantId(), t.failureRate()));
        keptAges = ages;
        keptRates = rates;
        oldestDue.register(ages.keySet().stream()
                .<MultiGauge.Row<?>>map(tenant -> MultiGauge.Row.of(Tags.of("tenant", tenant), this,
                        m -> m.keptAges.getOrDefault(tenant, Double.NaN)))
                .toList(), false);
        failureRate.register(rates.keySet().stream()
                .<MultiGauge.Row<?>>map(tenant -> MultiGauge.Row.of(Tags.of("tenant", tenant), this,
                        m -> m.keptRates.getOrDefault(tenant, Double.NaN)))
                .toList(), false);
    }

    private double read(ToDoubleFunction<HealthSnapshot> value) {
        Snapshots<HealthSnapshot, TroubledTenants> current = snapshots.get();
        HealthSnapshot snapshot = current == null ? null : current.current();
        return snapshot == null ? Double.NaN : value.applyAsDouble(snapshot);
    }


    private static double millis(Optional<Duration> age) {
        return age.map(Duration::toMillis).orElse(0L);
    }
}
