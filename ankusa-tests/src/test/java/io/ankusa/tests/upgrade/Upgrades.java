package io.ankusa.tests.upgrade;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.QueueConfig;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.keys.Prefixes;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.queue.StoreUpgrade;
import io.ankusa.queue.deliveries.CounterValues;
import io.ankusa.queue.deliveries.Counters;
import io.ankusa.queue.migration.FormatGuard;
import io.ankusa.queue.migration.StoreLayout;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.tests.queue.StoreSnapshot;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/** What the upgrade tests share: configs on the fixtures' clock, raw store access, interrupted runs. */
final class Upgrades {

    private Upgrades() {
    }

    /** A queue config for {@code dir} whose clock stands at {@link StoreFixtures#EPOCH}. */
    static QueueConfig config(String backend, Path dir) {
        return config(backend, dir, b -> b);
    }

    /** The same, changed by {@code tweak}. */
    static QueueConfig config(String backend, Path dir, UnaryOperator<QueueConfig.Builder> tweak) {
        return tweak.apply(QueueConfig.builder(dir).backend(backend)
                .clock(InstantSource.fixed(Instant.ofEpochMilli(StoreFixtures.EPOCH)))).build();
    }

    /** Opens an existing store with the format-3 column families, without the format guard. */
    static Store openRaw(String backend, Path dir) {
        return Stores.open(backend, StoreOptions.existing(dir, StoreLayout.families()));
    }

    /**
     * Old rows per step of {@link #migrateInSteps} and {@link #interruptAfter}: small, so that a
     * backlog of a few thousand rows migrates in several steps (the release's steps are far larger).
     */
    static final int STEP_ROWS = 500;

    /** Migrates (or resumes) with {@link StoreUpgrade#run}; returns the progress of every committed step. */
    static List<StoreUpgrade.Progress> migrate(QueueConfig config) {
        List<StoreUpgrade.Progress> steps = new ArrayList<>();
        StoreUpgrade.run(config, steps::add);
        return steps;
    }

    /**
     * Migrates (or resumes) as {@link StoreUpgrade#run} does, in steps of {@value #STEP_ROWS} old
     * rows; returns the progress of every committed step.
     */
    static List<StoreUpgrade.Progress> migrateInSteps(QueueConfig config) {
        List<StoreUpgrade.Progress> steps = new ArrayList<>();
        try (Store store = openRaw(config.backend(), config.directory())) {
            FormatGuard.prepare(store, smallSteps().withListener(p -> steps.add(new StoreUpgrade.Progress(p.from(),
                    p.to(), p.steps(), p.rows(), p.elapsed(), p.position(), p.done()))), config);
        }
        return steps;
    }

    /** The standard migrations in steps of {@value #STEP_ROWS} old rows. */
    static Migrations smallSteps() {
        return Migrations.standardWithStepRows(STEP_ROWS);
    }

    /**
     * Runs the migration in steps of {@value #STEP_ROWS} rows and closes the store right after its
     * {@code steps}-th step committed (the first commit is the format-3 sentinels, then one per
     * step), as if the process stopped there.
     */
    static ClosingAfterCommitsStore interruptAfter(QueueConfig config, int steps) {
        Store raw = openRaw(config.backend(), config.directory());
        ClosingAfterCommitsStore store = new ClosingAfterCommitsStore(raw, steps + 1);
        try {
            assertThatThrownBy(() -> FormatGuard.prepare(store, smallSteps(), config))
                    .as("the migration stops when its store is closed after step %d", steps)
                    .isInstanceOf(StoreClosedException.class);
        } finally {
            raw.close();
        }
        return store;
    }

    /** Every key and value of every column family. */
    static List<String> snapshot(String backend, Path dir) {
        try (Store store = openRaw(backend, dir)) {
            return StoreSnapshot.of(store);
        }
    }

    /** The stamped format. */
    static OptionalInt format(Store store) {
        return FormatGuard.stamp(store);
    }

    /** Every tenant with an ordinal ({@code ?n} rows): tenant id to ordinal. */
    static Map<String, Long> ordinals(Store store) {
        Map<String, Long> out = new TreeMap<>();
        try (Scan scan = store.scan(ColumnFamilies.TENANTS, KeyRange.prefix(new byte[] {Prefixes.ORD_BY_TENANT}))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                if (!OrdByTenantKey.FAMILY.isSentinel(kv.key())) {
                    out.put(OrdByTenantKey.decode(kv.key()).tenant(), OrdByTenantKey.decodeValue(kv.value()));
                }
            }
        }
        return out;
    }

    /** Every allocated ordinal ({@code ?t} rows): ordinal to tenant id (empty for an erased tenant). */
    static Map<Long, String> tenantsByOrd(Store store) {
        Map<Long, String> out = new TreeMap<>();
        try (Scan scan = store.scan(ColumnFamilies.TENANTS, KeyRange.prefix(new byte[] {Prefixes.TENANT_BY_ORD}))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                if (!TenantByOrdKey.FAMILY.isSentinel(kv.key())) {
                    out.put(TenantByOrdKey.decode(kv.key()).ord(), TenantByOrdKey.decodeValue(kv.value()));
                }
            }
        }
        return out;
    }

    /** Every tenant's six counters, by tenant id. */
    static Map<String, CounterValues> countersByTenant(Store store) {
        Map<String, CounterValues> out = new TreeMap<>();
        ordinals(store).forEach((tenant, ord) -> out.put(tenant, Counters.read(store, ord)));
        return out;
    }

    /** Six counters from their values in the spec's order (pending, scheduled, inflight, dead, bytes, archive_pending). */
    static CounterValues counters(long pending, long scheduled, long inflight, long dead, long bytes, long archive) {
        return new CounterValues(pending, scheduled, inflight, dead, bytes, archive, 0, 0);
    }
}
