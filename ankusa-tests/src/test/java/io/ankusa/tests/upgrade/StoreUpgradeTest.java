package io.ankusa.tests.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.api.StoreFormatNewerException;
import io.ankusa.api.TenantLimitException;
import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.Prefixes;
import io.ankusa.keys.v2.DueKeyV2;
import io.ankusa.queue.Queue;
import io.ankusa.queue.StoreUpgrade;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.queue.deliveries.CounterValues;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.queue.migration.FormatGuard;
import io.ankusa.queue.migration.FormatTwoWriter;
import io.ankusa.store.Bytes;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.StoreSnapshot;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The upgrade and layout checks of TEN-1 (§7, §8, "Proof: Upgrade and layout"), on both
 * backends. The migration's start time is the fixtures' clock ({@link StoreFixtures#EPOCH}).
 */
class StoreUpgradeTest {

    private static final String STEP = "2 -> 3: re-key due/inflight/dead by tenant ordinal, seed per-tenant counters";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void v2FixtureUpgradesToV3WithCountersEqualToAFold(String backend) {
        Path store = dir.resolve("store");
        StoreFixtures.unpack(StoreFixtures.committed(2, backend), store);
        QueueConfig config = Upgrades.config(backend, store);

        List<StoreUpgrade.Progress> steps = Upgrades.migrate(config);

        assertThat(steps).hasSize(1);
        assertThat(steps.get(0)).satisfies(p -> {
            assertThat(p.done()).isTrue();
            assertThat(p.rows()).isEqualTo(29);
        });
        try (Store s = Upgrades.openRaw(backend, store)) {
            assertThat(Upgrades.format(s)).hasValue(3);
            assertThat(s.get(ColumnFamilies.DEFAULT, MetaKeys.migrating(3))).isEmpty();
            assertThat(keysWithPrefix(s, Prefixes.DUE_V2)).as("format-2 due keys and sentinels").isZero();
            assertThat(keysWithPrefix(s, Prefixes.INFLIGHT_V2)).as("format-2 inflight keys and sentinels").isZero();
            IndexFold.of(s).assertCountersMatch(s);
            Map<String, CounterValues> tenants = Upgrades.countersByTenant(s);
            assertThat(tenants.keySet()).containsExactly("acme", "default", "globex", "initech", "zürich");
            assertRows(tenants.get("acme"), 3, 1, 1, 2, 5);
            assertRows(tenants.get("globex"), 1, 1, 1, 0, 1);
            assertRows(tenants.get("initech"), 0, 0, 0, 3, 1);
            assertRows(tenants.get("zürich"), 1, 0, 0, 0, 0);
            assertRows(tenants.get("default"), 2, 0, 2, 2, 2);
            assertThat(tenants.values()).allSatisfy(c -> assertThat(c.bytes()).isPositive());
        }

        // Booting moves the inflight rows left by the crash back to due; the counters still equal the fold.
        try (Queue queue = Queue.open(config)) {
            QueueStats stats = queue.stats();
            assertThat(stats.pending()).isEqualTo(7 + 4);
            assertThat(stats.scheduled()).isEqualTo(2);
            assertThat(stats.inflight()).isZero();
            assertThat(stats.dead()).isEqualTo(7);
            assertThat(stats.archivePending()).isEqualTo(9);
            assertThat(queue.tenantCount()).isEqualTo(5);
            assertThat(queue.pendingForTenant("default").pending()).isEqualTo(4);
            Store s = QueueEngine.of(queue).store();
            IndexFold fold = IndexFold.of(s);
            fold.assertCountersMatch(s);
            fold.assertEveryDueRowHasAMarker();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookWithNoTenantOrNoEnvelopeFilesUnderDefault(String backend) {
        Path store = dir.resolve("store");
        long noTenant;
        long broken;
        long missing;
        try (FormatTwoWriter w = FormatTwoWriter.create(backend, store)) {
            long acme = w.hook(StoreFixtures.hook("acme-1", "acme", 1), StoreFixtures.EPOCH);
            w.due(acme, 1, StoreFixtures.EPOCH, 0);
            noTenant = w.hook(StoreFixtures.hook("no-tenant", null, 1, 2, 3), StoreFixtures.EPOCH);
            broken = w.brokenHook(new byte[] {(byte) 0xFF, 0, 1, 2, 3, 4, 5});
            missing = w.missingHook(50);
            for (long seq : new long[] {noTenant, broken, missing}) {
                w.due(seq, 1, StoreFixtures.EPOCH - 1, 0);
                w.inflight(seq, 2);
                w.dead(seq, 3, StoreFixtures.EPOCH - 5, "src-" + seq, "hook-" + seq);
                w.archive(seq);
            }
        }

        QueueConfig config = Upgrades.config(backend, store);
        Upgrades.migrate(config);

        try (Store s = Upgrades.openRaw(backend, store)) {
            IndexFold.of(s).assertCountersMatch(s);
            Map<String, Long> ords = Upgrades.ordinals(s);
            assertThat(ords.keySet()).containsExactly("acme", "default");
            long def = ords.get("default");
            CounterValues counters = Upgrades.countersByTenant(s).get("default");
            assertRows(counters, 3, 0, 3, 3, 3);
            long noTenantSize = s.get(ColumnFamilies.HOOKS, new HookKey(noTenant).encode()).orElseThrow().length;
            assertThat(counters.bytes()).as("bytes of due, inflight and dead rows").isEqualTo(3 * (noTenantSize + 7 + 50));
            for (long seq : new long[] {noTenant, broken, missing}) {
                assertThat(indexOrds(s, seq)).as("ordinals of the rows of hook %d", seq).containsOnly(def);
                byte[] deadValue = s.get(ColumnFamilies.INDEX, new DeadKey(StoreFixtures.EPOCH - 5, seq, 3).encode())
                        .orElseThrow();
                assertThat(DeadKey.decodeValue(deadValue)).isEqualTo(new DeadKey.Value(def, "src-" + seq, "hook-" + seq));
            }
        }
        try (Queue queue = Queue.open(config)) {
            assertThat(queue.ingest(StoreFixtures.hook("next", null, 1)).join().seq())
                    .as("seq is never reused, not even the seq of a hook that is gone but still has rows")
                    .isEqualTo(missing + 1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void damagedFormat2IndexValuesMigrateWithWhatTheHookTellsStrayKeysAreDropped(String backend) {
        Path store = dir.resolve("store");
        long seq;
        int envelopeSize;
        try (FormatTwoWriter w = FormatTwoWriter.create(backend, store)) {
            seq = w.hook(StoreFixtures.hook("h", "acme", 1, 2, 3), StoreFixtures.EPOCH);
            envelopeSize = new HookEnvelope(StoreFixtures.hook("h", "acme", 1, 2, 3), StoreFixtures.EPOCH).encode().length;
            w.due(seq, 1, StoreFixtures.EPOCH, 0);
            w.raw(ColumnFamilies.INDEX, new DueKeyV2(StoreFixtures.EPOCH, seq, 1).encode(), new byte[] {9});
            w.inflight(seq, 2);
            w.dead(seq, 3, StoreFixtures.EPOCH, "src", "h");
            w.raw(ColumnFamilies.INDEX, new DeadKey(StoreFixtures.EPOCH, seq, 3).encode(), new byte[] {1, 2, 3});
            w.archive(seq);
            w.raw(ColumnFamilies.INDEX, new byte[] {Prefixes.DUE_V2, 1, 2, 3}, new byte[0]);
        }

        Upgrades.migrate(Upgrades.config(backend, store));

        try (Store s = Upgrades.openRaw(backend, store)) {
            IndexFold.of(s).assertCountersMatch(s);
            long acme = Upgrades.ordinals(s).get("acme");
            CounterValues counters = Upgrades.countersByTenant(s).get("acme");
            assertRows(counters, 1, 0, 1, 1, 1);
            assertThat(counters.bytes()).isEqualTo(3L * envelopeSize);
            assertThat(DeadKey.decodeValue(s.get(ColumnFamilies.INDEX, new DeadKey(StoreFixtures.EPOCH, seq, 3).encode())
                    .orElseThrow())).as("ids from the envelope").isEqualTo(new DeadKey.Value(acme, "src", "h"));
            assertThat(keysWithPrefix(s, Prefixes.DUE_V2)).as("the stray key is range-deleted").isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void tenantMigrationAllocatesEachOrdinalOnce(String backend) {
        Path store = dir.resolve("store");
        new FormatTwoBacklog(900, 300, 300, 200, 150, 11).write(backend, store);
        String firstSeen;
        try (Store s = Stores.open(backend, StoreOptions.existing(store, FormatTwoWriter.families()))) {
            firstSeen = tenantOfFirst(s, new byte[] {Prefixes.DUE_V2});
        }
        QueueConfig config = Upgrades.config(backend, store);
        // Interrupted once after step 2, so allocation also spans a resume.
        Upgrades.interruptAfter(config, 2);
        Upgrades.migrate(config);

        try (Store s = Upgrades.openRaw(backend, store)) {
            Map<String, Long> ords = Upgrades.ordinals(s);
            int n = ords.size();
            assertThat(n).as("tenants t0..t149 and default").isBetween(140, 151);
            assertThat(new HashSet<>(ords.values())).as("ordinals 1..n, none twice")
                    .isEqualTo(LongStream.rangeClosed(1, n).boxed().collect(Collectors.toSet()));
            assertThat(ords.get(firstSeen)).as("first sight gets ordinal 1").isEqualTo(1);
            Map<Long, String> byOrd = Upgrades.tenantsByOrd(s);
            assertThat(byOrd).hasSize(n);
            ords.forEach((tenant, ord) -> assertThat(byOrd.get(ord)).isEqualTo(tenant));
            assertThat(MetaKeys.decodeU32("m:next_ord", s.get(ColumnFamilies.DEFAULT, MetaKeys.NEXT_ORD).orElseThrow()))
                    .isEqualTo(n + 1L);
            // Every migrated row is filed under the ordinal of its hook's tenant.
            try (Scan scan = s.scan(ColumnFamilies.INDEX, KeyRange.all())) {
                int checked = 0;
                while (scan.hasNext()) {
                    KeyValue kv = scan.next();
                    long[] seqAndOrd = seqAndOrd(kv);
                    if (seqAndOrd != null) {
                        String tenant = HookEnvelope.decode(s.get(ColumnFamilies.HOOKS, new HookKey(seqAndOrd[0]).encode())
                                .orElseThrow()).hook().tenant();
                        assertThat(seqAndOrd[1]).as("ordinal of a row of hook %d (%s)", seqAndOrd[0], tenant)
                                .isEqualTo(ords.get(tenant));
                        checked++;
                    }
                }
                assertThat(checked).isEqualTo(900 + 300 + 300 + 200);
            }
            IndexFold.of(s).assertCountersMatch(s);
        }
        try (Queue queue = Queue.open(config)) {
            assertThat(queue.tenantCount()).isEqualTo(Upgrades.ordinals(QueueEngine.of(queue).store()).size());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aMigrationPastTenantsMaxKeepsEveryRowAndOnlyNewTenantsAreRefusedAfterwards(String backend) {
        Path store = dir.resolve("store");
        long rows = new FormatTwoBacklog(400, 100, 100, 0, 40, 5).write(backend, store);
        QueueConfig config = Upgrades.config(backend, store, b -> b.tenantsMax(10));

        List<StoreUpgrade.Progress> steps = Upgrades.migrate(config);

        assertThat(steps.get(steps.size() - 1).rows()).as("rows migrated").isEqualTo(rows);
        try (Queue queue = Queue.open(config)) {
            assertThat(queue.tenantCount()).isGreaterThan(10);
            QueueStats stats = queue.stats();
            assertThat(stats.pending() + stats.scheduled() + stats.dead()).isEqualTo(rows);
            Store s = QueueEngine.of(queue).store();
            IndexFold.of(s).assertCountersMatch(s);
            assertThat(queue.ingest(StoreFixtures.hook("again", "t3", 1)).join().tenantId()).isEqualTo("t3");
            assertThatThrownBy(() -> queue.ingest(StoreFixtures.hook("new", "newcomer", 1)).join())
                    .isInstanceOf(CompletionException.class).hasCauseInstanceOf(TenantLimitException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aFormat2ReleaseRefusesAFormat3Store(String backend) {
        Path store = dir.resolve("store");
        StoreFixtures.unpack(StoreFixtures.committed(2, backend), store);
        QueueConfig config = Upgrades.config(backend, store);
        Queue.open(config).close();

        // The store refuses the older release's column family list...
        assertThatThrownBy(() -> Stores.open(backend, StoreOptions.existing(store, FormatTwoWriter.families())))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.FAMILY_MISMATCH));
        // ...and the format guard of a format-2 release refuses the stamp, before anything is written.
        try (Store s = Upgrades.openRaw(backend, store)) {
            List<String> before = StoreSnapshot.of(s);
            assertThatThrownBy(() -> FormatGuard.requireNotNewer(s, 2))
                    .isInstanceOfSatisfying(StoreFormatNewerException.class, e -> {
                        assertThat(e.found()).isEqualTo(3);
                        assertThat(e.supported()).isEqualTo(2);
                        assertThat(e.error()).isEqualTo("store_format_newer");
                    });
            assertThat(StoreSnapshot.of(s)).isEqualTo(before);
        }

        // A migration killed midway leaves the store at format 2 with m:migrating:3: still only the
        // format-3 release can open it.
        Path half = dir.resolve("half");
        new FormatTwoBacklog(600, 0, 0, 0, 3, 1).write(backend, half);
        QueueConfig halfConfig = Upgrades.config(backend, half);
        Upgrades.interruptAfter(halfConfig, 1);
        try (Store s = Upgrades.openRaw(backend, half)) {
            assertThat(Upgrades.format(s)).hasValue(2);
            assertThat(s.get(ColumnFamilies.DEFAULT, MetaKeys.migrating(3))).isPresent();
        }
        assertThatThrownBy(() -> Stores.open(backend, StoreOptions.existing(half, FormatTwoWriter.families())))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.reason()).isEqualTo(StoreError.FAMILY_MISMATCH));
        Queue.open(halfConfig).close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRestoredFormat2BackupMigratesOnBoot(String backend) {
        Path live = dir.resolve("live");
        StoreFixtures.writeV2(backend, live);
        Path backup = dir.resolve("backup");
        try (Store s = Stores.open(backend, StoreOptions.existing(live, FormatTwoWriter.families()))) {
            s.checkpoint(backup);
        }
        // The upgrade goes ahead and the node acks a hook, then the operator goes back to the backup.
        try (Queue queue = Queue.open(Upgrades.config(backend, live))) {
            queue.ingest(StoreFixtures.hook("after-upgrade", "acme", 1)).join();
            assertThat(queue.pendingForTenant("acme").pending()).isEqualTo(3 + 1 + 1);
        }
        Path restored = dir.resolve("restored");
        StoreFixtures.copy(backup, restored);

        try (Queue queue = Queue.open(Upgrades.config(backend, restored))) {
            Store s = QueueEngine.of(queue).store();
            assertThat(Upgrades.format(s)).hasValue(3);
            IndexFold.of(s).assertCountersMatch(s);
            assertThat(queue.tenantCount()).isEqualTo(5);
            assertThat(queue.pendingForTenant("acme").pending()).as("what was acked after the upgrade is lost")
                    .isEqualTo(3 + 1);
            assertThat(queue.deadForTenant("initech").dead()).isEqualTo(3);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theV3FixtureTaskWritesAStoreThatBoots(String backend) {
        Path written = dir.resolve("written");
        List<Path> archives = io.ankusa.queue.fixtures.StoreFixtures.write(written, backend);
        assertThat(archives).containsExactly(written.resolve(StoreFixtures.archiveName(2, backend)),
                written.resolve(StoreFixtures.archiveName(3, backend)));
        Path unpacked = dir.resolve("unpacked");
        StoreFixtures.unpack(archives.get(1), unpacked);
        assertTheV3FixtureBoots(backend, unpacked);

        Path committed = dir.resolve("committed");
        StoreFixtures.unpack(StoreFixtures.committed(3, backend), committed);
        assertTheV3FixtureBoots(backend, committed);
    }

    private static void assertTheV3FixtureBoots(String backend, Path store) {
        try (Store s = Upgrades.openRaw(backend, store)) {
            assertThat(Upgrades.format(s)).hasValue(3);
            IndexFold.of(s).assertCountersMatch(s);
            Map<String, CounterValues> tenants = Upgrades.countersByTenant(s);
            assertThat(tenants.keySet()).containsExactly("acme", "default", "globex", "initech");
            assertRows(tenants.get("acme"), 3, 2, 1, 1, 6);
            assertRows(tenants.get("globex"), 2, 0, 1, 0, 3);
            assertRows(tenants.get("initech"), 0, 0, 0, 4, 3);
            assertRows(tenants.get("default"), 1, 1, 0, 1, 3);
        }
        try (Queue queue = Queue.open(Upgrades.config(backend, store))) {
            QueueStats stats = queue.stats();
            assertThat(stats).isEqualTo(new QueueStats(6 + 2, 3, 0, 6, stats.bytes(), 15));
            Store s = QueueEngine.of(queue).store();
            IndexFold fold = IndexFold.of(s);
            fold.assertCountersMatch(s);
            fold.assertEveryDueRowHasAMarker();
            assertThat(queue.ingest(StoreFixtures.hook("after-boot", "acme", 1)).join().tenantId()).isEqualTo("acme");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDryRunListsThePendingStepAndWritesNothing(String backend) {
        Path store = dir.resolve("store");
        new FormatTwoBacklog(600, 0, 0, 0, 3, 1).write(backend, store);
        QueueConfig config = Upgrades.config(backend, store);
        List<String> before = format2Snapshot(backend, store);

        List<StoreUpgrade.Step> steps = StoreUpgrade.dryRun(config);

        assertThat(steps).hasSize(1);
        assertThat(steps.get(0).toString()).isEqualTo(STEP);
        assertThat(steps.get(0).resuming()).isFalse();
        assertThat(format2Snapshot(backend, store)).as("the store is untouched, still format 2 with five families")
                .isEqualTo(before);

        Upgrades.interruptAfter(config, 1);
        assertThat(StoreUpgrade.dryRun(config)).singleElement().satisfies(s -> assertThat(s.resuming()).isTrue());
        assertThat(StoreUpgrade.run(config, StoreUpgrade.Listener.NONE)).extracting(StoreUpgrade.Step::toString)
                .containsExactly(STEP);
        assertThat(StoreUpgrade.dryRun(config)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anEmptyFormat2StoreMigratesInOneStep(String backend) {
        Path store = dir.resolve("store");
        FormatTwoWriter.create(backend, store).close();

        List<StoreUpgrade.Progress> steps = Upgrades.migrate(Upgrades.config(backend, store));

        assertThat(steps).singleElement().satisfies(p -> {
            assertThat(p.done()).isTrue();
            assertThat(p.rows()).isZero();
            assertThat(p.position()).isEqualTo("finished");
        });
        try (Queue queue = Queue.open(Upgrades.config(backend, store))) {
            Store s = QueueEngine.of(queue).store();
            IndexFold.of(s).assertCountersMatch(s);
            assertThat(queue.tenantCount()).isZero();
            assertThat(queue.ingest(StoreFixtures.hook("first", null, 1)).join().seq()).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void eachStepSeeksToJustAfterTheLastOldKeyNeverToTheFamilyStart(String backend) {
        Path store = dir.resolve("store");
        new FormatTwoBacklog(1800, 0, 0, 0, 5, 3).write(backend, store);
        QueueConfig config = Upgrades.config(backend, store);
        ClosingAfterCommitsStore recorded;
        try (Store raw = Upgrades.openRaw(backend, store)) {
            recorded = new ClosingAfterCommitsStore(raw, 0);
            FormatGuard.prepare(recorded, Upgrades.smallSteps(), config);
        }
        List<byte[]> starts = recorded.scans().stream()
                .filter(c -> c.family().equals(ColumnFamilies.INDEX))
                .map(c -> c.range().from())
                .filter(from -> from.length > 0 && from[0] == Prefixes.DUE_V2)
                .toList();
        byte[] familyStart = Arrays.copyOf(DueKeyV2.FAMILY.lo(), DueKeyV2.FAMILY.lo().length + 1);
        assertThat(starts).hasSize(4);
        assertThat(starts.get(0)).isEqualTo(familyStart);
        for (int i = 1; i < starts.size(); i++) {
            assertThat(Bytes.compare(starts.get(i), starts.get(i - 1))).as("step %d starts after step %d", i + 1, i)
                    .isPositive();
            byte[] lastOldKey = Arrays.copyOf(starts.get(i), starts.get(i).length - 1);
            assertThat(DueKeyV2.decode(lastOldKey).seq()).isPositive();
        }
    }

    // --- helpers ---

    private static void assertRows(CounterValues c, long pending, long scheduled, long inflight, long dead, long archive) {
        assertThat(new long[] {c.pending(), c.scheduled(), c.inflight(), c.dead(), c.archivePending()})
                .as("pending, scheduled, inflight, dead, archive_pending")
                .containsExactly(pending, scheduled, inflight, dead, archive);
    }

    private static int keysWithPrefix(Store s, byte prefix) {
        int n = 0;
        try (Scan scan = s.scan(ColumnFamilies.INDEX, KeyRange.prefix(new byte[] {prefix}))) {
            while (scan.hasNext()) {
                scan.next();
                n++;
            }
        }
        return n;
    }

    /** The ordinals carried by the ?D, ?F, ?x, ?X and ?a rows of hook {@code seq}. */
    private static Set<Long> indexOrds(Store s, long seq) {
        Set<Long> out = new HashSet<>();
        try (Scan scan = s.scan(ColumnFamilies.INDEX, KeyRange.all())) {
            while (scan.hasNext()) {
                long[] seqAndOrd = seqAndOrd(scan.next());
                if (seqAndOrd != null && seqAndOrd[0] == seq) {
                    out.add(seqAndOrd[1]);
                }
            }
        }
        return out;
    }

    /** {seq, ord} of a ?D, ?F, ?x or ?a row (not ?X: its ordinal is checked against ?x by the fold); null otherwise. */
    private static long[] seqAndOrd(KeyValue kv) {
        byte[] key = kv.key();
        byte prefix = key[0];
        if (prefix == Prefixes.DUE && !DueKey.FAMILY.isSentinel(key)) {
            DueKey k = DueKey.decode(key);
            return new long[] {k.seq(), k.ord()};
        }
        if (prefix == Prefixes.INFLIGHT && !InflightKey.FAMILY.isSentinel(key)) {
            InflightKey k = InflightKey.decode(key);
            return new long[] {k.seq(), k.ord()};
        }
        if (prefix == Prefixes.DEAD && !DeadKey.FAMILY.isSentinel(key)) {
            return new long[] {DeadKey.decode(key).seq(), DeadKey.decodeValue(kv.value()).ord()};
        }
        if (prefix == Prefixes.ARCHIVE && !ArchiveKey.FAMILY.isSentinel(key)) {
            return new long[] {ArchiveKey.decode(key).seq(),
                    ArchiveKey.decodeValue(kv.value()).ord()};
        }
        return null;
    }

    /** The tenant of the hook of the first real key with {@code prefix} in a format-2 store. */
    private static String tenantOfFirst(Store s, byte[] prefix) {
        try (Scan scan = s.scan(ColumnFamilies.INDEX, KeyRange.prefix(prefix))) {
            while (scan.hasNext()) {
                byte[] key = scan.next().key();
                if (!DueKeyV2.FAMILY.isSentinel(key)) {
                    long seq = DueKeyV2.decode(key).seq();
                    return HookEnvelope.decode(s.get(ColumnFamilies.HOOKS, new HookKey(seq).encode()).orElseThrow())
                            .hook().tenant();
                }
            }
        }
        throw new AssertionError("no format-2 due row");
    }

    /** Every key of a store opened as a format-2 release opens it (five column families). */
    private static List<String> format2Snapshot(String backend, Path store) {
        try (Store s = Stores.open(backend, StoreOptions.existing(store, FormatTwoWriter.families()))) {
            return StoreSnapshot.of(s);
        }
    }
}
