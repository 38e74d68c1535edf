package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.DeadStats;
import io.ankusa.api.Hook;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantStats;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.CounterKey;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.Settlement;
import io.ankusa.store.Bytes;
import io.ankusa.store.Store;
import io.ankusa.store.StoreException;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.StoreSnapshot;
import io.ankusa.tests.support.InterruptingStore;
import io.ankusa.tests.support.RecordingStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code purgeTenant}: one tenant only, never an inflight row, each kind on its own, resumable. */
class PurgeTenantTest {

    private static final Set<PurgeKind> BOTH = EnumSet.allOf(PurgeKind.class);

    @TempDir
    Path dir;

    /** Seq to tenant ordinal, and tenant id to ordinal, of what a test ingested. */
    private record Owners(Map<Long, Long> bySeq, Map<String, Long> byName) {
    }

    /**
     * Tenants a, b and default, each with first-attempt and retry due rows, an inflight row, dead
     * rows, a delivered row (a cleared marker), archive obligations and dedupe entries.
     */
    private static Owners seedThreeTenants(QueueUnderTest q) {
        Owners owners = new Owners(new HashMap<>(), new HashMap<>());
        for (String tenant : List.of("a", "b", "default")) {
            for (int i = 0; i < 6; i++) {
                Hook.Builder hook = Hook.builder().id(tenant + i).sourceId("src").payload("p" + i).sinks(0, 1)
                        .idempotencyKey("key-" + i);
                if (!tenant.equals("default")) {
                    hook.tenantId(tenant);
                }
                Receipt r = q.ingest(hook.build());
                long ord = q.ord(tenant).orElseThrow();
                owners.bySeq().put(r.seq(), ord);
                owners.byName().put(tenant, ord);
            }
            Operations.deadLetter(q, tenant, 3);
            for (ClaimedDelivery d : Operations.claim(q, tenant, 2)) {
                q.ledger().retry(d, q.clock().millis() + 60_000, "HTTP 503");
            }
            Operations.deliver(q, tenant, 1);
            Operations.claim(q, tenant, 1);
        }
        return owners;
    }

    private static List<String> rowsOf(Store store, Owners owners, String... tenants) {
        Set<Long> ords = Stream.of(tenants).map(owners.byName()::get).collect(java.util.stream.Collectors.toSet());
        return TenantRows.of(store, ords, owners.bySeq()::get, owners.byName());
    }

    private static QueueUnderTest recorded(String backend, Path dir, AtomicReference<RecordingStore> recorder) {
        return QueueUnderTest.open(backend, dir, b -> b.archive(true), s -> {
            recorder.set(new RecordingStore(s));
            return recorder.get();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void pendingForTenantDeadForTenantAndPurgeTenantTouchOneTenant(String backend) {
        AtomicReference<RecordingStore> recorder = new AtomicReference<>();
        try (QueueUnderTest q = recorded(backend, dir, recorder)) {
            Owners owners = seedThreeTenants(q);
            long a = owners.byName().get("a");
            List<String> othersBefore = rowsOf(q.store(), owners, "b", "default");
            TenantStats bStats = q.queue().pendingForTenant("b");
            assertThat(othersBefore).isNotEmpty();

            RecordingStore store = recorder.get();
            store.clear();
            TenantStats aStats = q.queue().pendingForTenant("a");
            DeadStats aDead = q.queue().deadForTenant("a");
            assertThat(aStats).isEqualTo(new TenantStats(5, 2, 1, 3, aStats.bytes()));
            assertThat(aDead.dead()).isEqualTo(3);
            assertThat(store.calls()).as("the reads are point reads").noneMatch(c -> c.method().equals("scan")
                    || c.method().equals("commit"));
            assertThat(store.calls()).filteredOn(c -> c.family().equals(ColumnFamilies.COUNTERS))
                    .flatExtracting(RecordingStore.Call::keys).isNotEmpty()
                    .allSatisfy(k -> assertThat(CounterKey.decode(k).ord()).as("counter rows read").isEqualTo(a));
            assertThat(store.calls()).filteredOn(c -> !c.family().equals(ColumnFamilies.COUNTERS))
                    .flatExtracting(RecordingStore.Call::keys)
                    .allSatisfy(k -> assertThat(Bytes.hex(k)).isEqualTo(Bytes.hex(new OrdByTenantKey("a").encode())));

            store.clear();
            PurgeResult result = q.queue().purgeTenant("a", BOTH);
            List<RecordingStore.Call> purgeScans = store.calls("scan");

            long size = aStats.bytes() / 11; // a holds 11 delivery rows of one envelope size
            assertThat(result).isEqualTo(new PurgeResult("a", 5, 2, 3, 10 * size));
            assertThat(rowsOf(q.store(), owners, "b", "default")).as("other tenants' rows and counters, byte for byte")
                    .containsExactlyElementsOf(othersBefore);
            assertThat(q.queue().pendingForTenant("b")).isEqualTo(bStats);
            assertThat(q.queue().pendingForTenant("a")).as("only the inflight row is left")
                    .isEqualTo(new TenantStats(0, 0, 1, 0, size));
            assertThat(q.queue().deadForTenant("a").dead()).isZero();
            assertThat(purgeScans).as("purge scans only a's due and dead ranges").hasSize(2)
                    .allSatisfy(c -> assertThat(c.family()).isEqualTo(ColumnFamilies.INDEX))
                    .allSatisfy(c -> assertThat(c.range().orElseThrow().from()[4]).isEqualTo((byte) a));
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anUnknownTenantPurgesNothingScansNothingAndWritesNothing(String backend) {
        AtomicReference<RecordingStore> recorder = new AtomicReference<>();
        try (QueueUnderTest q = recorded(backend, dir, recorder)) {
            seedThreeTenants(q);
            recorder.get().clear();
            assertThat(q.queue().purgeTenant("ghost", BOTH)).isEqualTo(PurgeResult.none("ghost"));
            assertThat(recorder.get().calls()).noneMatch(c -> c.method().equals("scan") || c.method().equals("commit"));
            assertThat(q.queue().auditTrail(10)).isEmpty();
            assertThatThrownBy(() -> q.queue().purgeTenant("a", Set.of())).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void purgeNeverTouchesInflightRowsAndPurgesEachKindOnItsOwn(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.archive(true))) {
            seedThreeTenants(q);
            List<ClaimedDelivery> inflight = Operations.claim(q, "a", 2);
            long size = q.queue().pendingForTenant("a").bytes() / 11;

            assertThat(q.queue().purgeTenant("a", Set.of(PurgeKind.DEAD))).isEqualTo(new PurgeResult("a", 0, 0, 3, 3 * size));
            assertThat(q.queue().pendingForTenant("a")).isEqualTo(new TenantStats(3, 2, 3, 0, 8 * size));
            assertThat(q.queue().purgeTenant("a", Set.of(PurgeKind.PENDING))).isEqualTo(new PurgeResult("a", 3, 2, 0, 5 * size));
            assertThat(q.queue().pendingForTenant("a")).as("the three inflight rows are untouched")
                    .isEqualTo(new TenantStats(0, 0, 3, 0, 3 * size));
            assertThat(q.queue().purgeTenant("a", BOTH)).as("idempotent").isEqualTo(PurgeResult.none("a"));

            inflight.forEach(d -> q.ledger().delivered(d.row()));
            assertThat(q.queue().pendingForTenant("a")).isEqualTo(new TenantStats(0, 0, 1, 0, size));
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    static Stream<Arguments> interruptions() {
        // 1300 due rows are 3 chunks (500, 500, 300), 600 dead rows 2 more: interrupt in either phase.
        return io.ankusa.tests.queue.Backends.names().flatMap(b -> Stream.of(1, 3, 4, 5).map(k -> Arguments.of(b, k)));
    }

    @ParameterizedTest(name = "{0}, interrupted at chunk {1}")
    @MethodSource("interruptions")
    void aPurgeInterruptedAfterKChunksAndCalledAgainEndsAsOneUninterruptedPurge(String backend, int failingChunk) {
        PurgeResult whole;
        List<String> expected;
        try (QueueUnderTest straight = QueueUnderTest.open(backend, dir.resolve("straight"))) {
            seedBigTenant(straight);
            whole = straight.queue().purgeTenant("big", BOTH);
            expected = withoutAudit(straight.store());
        }
        assertThat(whole).isEqualTo(new PurgeResult("big", 1300, 0, 600, whole.bytes()));

        AtomicReference<InterruptingStore> faults = new AtomicReference<>();
        try (QueueUnderTest interrupted = QueueUnderTest.open(backend, dir.resolve("interrupted"), b -> b, s -> {
            faults.set(new InterruptingStore(s));
            return faults.get();
        })) {
            seedBigTenant(interrupted);
            faults.get().failCommit(failingChunk, b -> true);
            assertThatThrownBy(() -> interrupted.queue().purgeTenant("big", BOTH)).isInstanceOf(StoreException.class);
            PurgeResult rest = interrupted.queue().purgeTenant("big", BOTH);

            assertThat(withoutAudit(interrupted.store())).as("every family but the audit trail, byte for byte")
                    .containsExactlyElementsOf(expected);
            List<AuditEntry> trail = interrupted.queue().auditTrail(10);
            assertThat(trail.get(0).action()).isEqualTo(AuditAction.PURGE);
            assertThat(trail.get(0).counts()).containsEntry("pending", rest.pending()).containsEntry("dead", rest.dead())
                    .doesNotContainKey("interrupted");
            long removedFirst = 0;
            if (failingChunk == 1) {
                assertThat(trail).as("nothing removed, nothing audited").hasSize(1);
            } else {
                assertThat(trail).hasSize(2);
                assertThat(trail.get(1).counts()).containsEntry("interrupted", 1L);
                removedFirst = trail.get(1).counts().get("pending") + trail.get(1).counts().get("dead");
            }
            assertThat(removedFirst + rest.deliveries()).isEqualTo(whole.deliveries());
            IndexFold.of(interrupted.store()).assertCountersMatch(interrupted.store());
        }
    }

    /** 950 hooks of tenant "big" with two sinks: 600 deliveries dead-lettered, 1300 due. */
    private static void seedBigTenant(QueueUnderTest q) {
        List<CompletableFuture<Receipt>> futures = new ArrayList<>();
        for (int i = 0; i < 950; i++) {
            futures.add(q.queue().ingest(QueueUnderTest.hook("h" + i, "big", 0, 1)));
        }
        futures.forEach(QueueUnderTest::await);
        List<Settlement> dead = Operations.claim(q, "big", 600).stream()
                .<Settlement>map(d -> new Settlement.Dead(d, "HTTP 410")).toList();
        q.ledger().settle(dead);
    }

    private static List<String> withoutAudit(Store store) {
        return StoreSnapshot.of(store).stream().filter(line -> !line.startsWith(ColumnFamilies.AUDIT + " ")).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void purgeRacingTheDispatchersClaimOnTheSameTenantLeavesCountersEqualToAFold(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            List<CompletableFuture<Receipt>> futures = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                futures.add(q.queue().ingest(QueueUnderTest.hook("h" + i, "raced", 0, 1)));
            }
            futures.forEach(QueueUnderTest::await);
            long ord = q.ord("raced").orElseThrow();
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Integer> claimer = pool.submit(() -> {
                    start.await();
                    int claimed = 0;
                    while (true) {
                        List<DueRow> due = q.ledger().dueForTenant(ord, q.clock().millis(), 0, 50, Long.MAX_VALUE);
                        if (due.isEmpty()) {
                            return claimed;
                        }
                        claimed += q.ledger().claim(ord, due).claimed().size();
                    }
                });
                Future<PurgeResult> purger = pool.submit(() -> {
                    start.await();
                    return q.queue().purgeTenant("raced", Set.of(PurgeKind.PENDING));
                });
                start.countDown();
                int claimed = claimer.get(60, TimeUnit.SECONDS);
                PurgeResult purged = purger.get(60, TimeUnit.SECONDS);

                assertThat(claimed + purged.pending()).as("every row claimed or purged, none twice").isEqualTo(2000);
                assertThat(q.queue().pendingForTenant("raced").inflight()).isEqualTo(claimed);
                assertThat(q.queue().pendingForTenant("raced").pending()).isZero();
                IndexFold.of(q.store()).assertCountersMatch(q.store());
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
