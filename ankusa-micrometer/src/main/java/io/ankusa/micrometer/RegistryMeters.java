package io.ankusa.micrometer;

import io.ankusa.api.DiskUsage;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.TenantPending;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/** The meters of one registry: the gauges over the snapshot, and the event meters on demand. */
final class RegistryMeters {

    private final MeterRegistry registry;
    private final Tags common;
    private final Supplier<Snapshots<Gauges, List<TenantPending>>> snapshots;
    private final Supplier<Snapshots<DiskUsage, DiskUsage>> disk;
    private final TopTenants tenants;
    /** The event meters, looked up once: building a meter id per event would cost more than the event. */
    private final Map<MeterKey, Meter> meters = new ConcurrentHashMap<>();

    private record MeterKey(String name, Tags tags) {
    }

    RegistryMeters(MeterRegistry registry, Tags common, Supplier<Snapshots<Gauges, List<TenantPending>>> snapshots,
            Supplier<Snapshots<DiskUsage, DiskUsage>> disk) {
        this.registry = registry;
        this.common = common;
        this.snapshots = snapshots;
        this.disk = disk;
        this.tenants = new TopTenants(registry, common);
    }

    TopTenants tenants() {
        return tenants;
    }

    void bindGauges() {
        // Base units only where Prometheus expects a suffix (bytes, seconds): "rows" would rename the series.
        gauge("ankusa.deliveries.pending", "First-attempt delivery rows waiting (node total)", null, Gauges::pending);
        gauge("ankusa.deliveries.scheduled", "Retry rows waiting (node total)", null, Gauges::scheduled);
        gauge("ankusa.deliveries.inflight", "Rows claimed and not yet settled", null, Gauges::inflight);
        gauge("ankusa.deliveries.dead", "Dead letters", null, Gauges::dead);
        gauge("ankusa.deliveries.bytes", "Envelope bytes of every delivery row", "bytes", Gauges::bytes);
        gauge("ankusa.archive.pending", "Archive obligations not yet settled", null, Gauges::archivePending);
        gauge("ankusa.tenants", "Tenants ever seen (ordinals allocated)", null, Gauges::tenants);
        TimeGauge.builder("ankusa.backlog.age", this, TimeUnit.MILLISECONDS, m -> m.read(
                        g -> g.oldestDueAge().map(age -> (double) age.toMillis()).orElse(0.0)))
                .description("How long the oldest due row has been due; 0 when nothing is due")
                .tags(common).register(registry);
        diskGauge("ankusa.store.size", "The store's size on disk, as its backend reports it", DiskUsage::storeBytes);
        diskGauge("ankusa.store.history.size", "Key and value bytes of the attempt history",
                DiskUsage::historyBytes);
        diskGauge("ankusa.store.history.max", "The attempt history's bound (attempts.max-bytes)",
                DiskUsage::historyMaxBytes);
    }

    private void diskGauge(String name, String description, ToDoubleFunction<DiskUsage> value) {
        Gauge.builder(name, this, m -> m.readDisk(value)).description(description).baseUnit("bytes").tags(common)
                .register(registry);
    }

    private double readDisk(ToDoubleFunction<DiskUsage> value) {
        Snapshots<DiskUsage, DiskUsage> source = disk.get();
        DiskUsage d = source == null ? null : source.current();
        return d == null ? Double.NaN : value.applyAsDouble(d);
    }

    private void gauge(String name, String description, String unit, ToDoubleFunction<Gauges> value) {
        Gauge.builder(name, this, m -> m.read(value)).description(description).baseUnit(unit).tags(common)
                .register(registry);
    }

    private double read(ToDoubleFunction<Gauges> value) {
        Snapshots<Gauges, List<TenantPending>> source = snapshots.get();
        Gauges g = source == null ? null : source.current();
        return g == null ? Double.NaN : value.applyAsDouble(g);
    }

    Timer timer(String name, String description, Tags tags) {
        return (Timer) meters.computeIfAbsent(new MeterKey(name, tags),
                k -> Timer.builder(name).description(description).tags(common).tags(tags).register(registry));
    }

    DistributionSummary summary(String name, String description) {
        return (DistributionSummary) meters.computeIfAbsent(new MeterKey(name, Tags.empty()),
                k -> DistributionSummary.builder(name).description(description).tags(common).register(registry));
    }

    void count(String name, Tags tags, double amount) {
        if (amount > 0) {
            ((Counter) meters.computeIfAbsent(new MeterKey(name, tags),
                    k -> Counter.builder(name).tags(common).tags(tags).register(registry))).increment(amount);
        }
    }
}
