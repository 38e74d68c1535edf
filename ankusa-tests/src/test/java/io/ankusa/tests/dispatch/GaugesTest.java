package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.TenantPending;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.CounterKey;
import io.ankusa.keys.Prefixes;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.testkit.ScriptedSink;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.RecordingStore.Call;
import io.ankusa.tests.support.ScanCountingStore.CountedScan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The gauges (TEN-1 §4, §5): read from counters and the active index, never from a fold of the
 * due, inflight, dead or archive families — checked by recording every store call a measurement
 * makes.
 */
class GaugesTest {

    @TempDir
    Path dir;

    private static void ingestAll(DispatchFixture f, List<io.ankusa.api.Hook> hooks) {
        List<CompletableFuture<?>> receipts = new ArrayList<>();
        hooks.forEach(h -> receipts.add(f.queue().ingest(h)));
        receipts.forEach(r -> QueueUnderTest.await(r.thenApply(x -> x)));
    }

    private static io.ankusa.api.Hook hook(String id, String tenant, int... sinks) {
        return QueueUnderTest.hook(id, tenant, sinks);
    }

    /**
     * A backlog of every kind: pending and scheduled rows, inflight rows, dead rows, archive
     * obligations, over {@code tenants} tenants with {@code perTenant} hooks each.
     */
    private static void backlog(DispatchFixture f, String prefix, int tenants, int perTenant) {
        List<io.ankusa.api.Hook> hooks = new ArrayList<>();
        for (int t = 0; t < tenants; t++) {
            for (int i = 0; i < perTenant; i++) {
                hooks.add(hook(prefix + t + "_" + i, "t" + t, 0, 1));
            }
        }
        ingestAll(f, hooks);
        DeliveryLedger ledger = f.ledger();
        for (int t = 0; t < tenants; t++) {
            long ord = f.ord("t" + t);
            Claim claim = ledger.claim(ord, ledger.dueForTenant(ord, f.now(), 0, 3, Long.MAX_VALUE));
            if (claim.claimed().size() == 3) {
                ledger.retry(claim.claimed().get(0), f.now() + 60_000, "HTTP 503");
                ledger.dead(claim.claimed().get(1), "HTTP 410");
            }
        }
    }

    /** Everything a measurement did to the store: every call, and every scan with the entries taken from it. */
    private record Measured(List<Call> calls, List<CountedScan> scans) {
    }

    private static Measured measure(DispatchFixture f, Runnable body) {
        f.recorder().clear();
        f.scans().clear();
        body.run();
        return new Measured(f.recorder().calls(), f.scans().scans());
    }

    /** What a measurement read, summarized so two measurements can be compared. */
    private record Footprint(List<String> calls, int entriesScanned) {
    }

    private static Footprint footprint(Measured m) {
        List<String> shape = new ArrayList<>();
        for (Call c : m.calls()) {
            String what = c.method() + " " + c.family();
            if (c.range().isPresent()) {
                byte[] from = c.range().get().from();
                what += " " + (from.length == 0 ? "" : (char) from[0]);
            }
            shape.add(what);
        }
        return new Footprint(shape, m.scans().stream().mapToInt(CountedScan::entries).sum());
    }

    /** Asserts the measurement folded nothing: see the class comment. */
    private static void assertNoFold(Measured m) {
        List<CountedScan> scans = m.scans();
        assertThat(scans).as("scans outside the index family").allSatisfy(s -> assertThat(s.family()).isEqualTo(ColumnFamilies.INDEX));
        assertThat(scans).as("scans of the inflight, dead, dead-by-tenant or archive families").noneSatisfy(s -> {
            byte[] from = s.range().from();
            assertThat(from.length > 0 && (from[0] == Prefixes.INFLIGHT || from[0] == Prefixes.DEAD
                    || from[0] == Prefixes.DEAD_BY_TENANT || from[0] == Prefixes.ARCHIVE)).isTrue();
        });
        List<CountedScan> dueScans = scans.stream().filter(s -> s.range().from().length > 0 && s.range().from()[0] == Prefixes.DUE).toList();
        assertThat(dueScans).as("due reads: each one tenant's first row (the oldest-due check), at most 33").hasSizeLessThanOrEqualTo(33)
                .allSatisfy(s -> {
                    assertThat(s.range().bounded()).isTrue();
                    assertThat(Arrays.copyOf(s.range().from(), 5)).as("one tenant's range")
                            .isEqualTo(Arrays.copyOf(prefixBefore(s.range().to()), 5));
                    assertThat(s.entries()).isLessThanOrEqualTo(1);
                });
        assertThat(m.calls()).as("reads of hooks or delivery rows").noneMatch(c ->
                c.touches(ColumnFamilies.HOOKS) || c.touches(ColumnFamilies.DELIVERIES));
        assertThat(m.calls()).as("writes").noneMatch(c -> c.method().equals("commit"));
        assertThat(m.calls()).filteredOn(c -> c.method().equals("counters")
                && c.keys().stream().anyMatch(k -> CounterKey.decode(k).ord() == 0)).as("one read of the aggregate's eight counters")
                .singleElement().satisfies(c -> assertThat(c.keys()).hasSize(8));
    }

    /** The last key of a prefix range's end is the prefix plus one: step back to compare prefixes. */
    private static byte[] prefixBefore(byte[] end) {
        byte[] key = Arrays.copyOf(end, 5);
        for (int i = 4; i >= 1; i--) {
            if (key[i]-- != 0) {
                break;
            }
        }
        return key;
    }

    /** Tenants named {@code held…} may have one delivery in flight; the others are unlimited. */
    private static final TenantPolicies HELD_AT_ONE = tenant -> tenant.startsWith("held")
            ? TenantPolicy.DEFAULT.withMaxInflight(1) : TenantPolicy.DEFAULT;

    /** A sink that never answers the {@code held…} tenants (their futures go to {@code unanswered}) and delivers the rest. */
    private static Sink holdingHeld(List<CompletableFuture<SinkOutcome>> unanswered) {
        return d -> {
            if (d.tenantId().startsWith("held")) {
                CompletableFuture<SinkOutcome> later = new CompletableFuture<>();
                unanswered.add(later);
                return later;
            }
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void queueGaugesReadCounters(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.archive(true));
                Pipeline pipeline = f.pipeline(ScriptedSink.delivering(), b -> b)) {
            backlog(f, "a", 20, 5);
            AtomicReference<Gauges> small = new AtomicReference<>();
            Footprint before = footprint(measure(f, () -> small.set(pipeline.gauges())));

            IndexFold fold = f.fold();
            long[] total = fold.total();
            Gauges g = small.get();
            assertThat(new long[] {g.pending(), g.scheduled(), g.inflight(), g.dead(), g.bytes(), g.archivePending()})
                    .as("the gauges equal a fold of the families").containsExactly(Arrays.copyOfRange(total, 1, 7));
            assertThat(g.pending()).isEqualTo(20 * (10 - 3));
            assertThat(g.scheduled()).isEqualTo(20);
            assertThat(g.inflight()).isEqualTo(20);
            assertThat(g.dead()).isEqualTo(20);
            assertThat(g.archivePending()).isEqualTo(100);
            assertThat(g.tenants()).isEqualTo(20);

            // Ten times the backlog, same tenants, same second: the measurement reads exactly as much.
            backlog(f, "b", 20, 50);
            Measured measured = measure(f, pipeline::gauges);
            assertNoFold(measured);
            assertThat(footprint(measured)).isEqualTo(before);
            assertThat(pipeline.gauges().pending()).isEqualTo(20 * (10 - 3) + 20 * (100 - 3));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void oldestDueAgeComesFromTheActiveIndex(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir);
                Pipeline pipeline = f.pipeline(ScriptedSink.delivering(), b -> b)) {
            assertThat(pipeline.gauges().oldestDueAge()).as("nothing due").isEmpty();
            long start = f.now();
            f.ingest("a", "ta", 0);
            f.clock().advance(3_250);
            f.ingest("b", "tb", 0);
            f.clock().advance(10_000);
            // ta's row is claimed: its marker (the first one) is stale until a tick cleans it.
            DeliveryLedger ledger = f.ledger();
            long ta = f.ord("ta");
            ledger.claim(ta, ledger.dueForTenant(ta, f.now(), 0, 10, Long.MAX_VALUE));

            Measured measured = measure(f, () -> assertThat(pipeline.gauges().oldestDueAge())
                    .as("tb's row, due 10 s ago; ta's stale marker skipped").contains(Duration.ofMillis(10_000)));
            assertNoFold(measured);
            assertThat(measured.scans()).map(s -> s.range().from()[0])
                    .as("the marker scan comes first").first().isEqualTo(Prefixes.ACTIVE);

            // A step back of the wall clock to before both rows leaves the queue clock where it was
            // (ClockStepTest: a row due in the future reads zero).
            f.clock().advance(-(f.now() - start) - 1_000);
            assertThat(pipeline.gauges().oldestDueAge()).as("the queue clock does not go back")
                    .contains(Duration.ofMillis(10_000));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPipelinesOldestDueAgeComesFromItsSchedulersCleanupsNotFromAReadOfTheStore(String backend) {
        // Eight tenants held at an in-flight limit of 1 by a sink that does not answer them, each
        // with a backlog over 30 seconds: the scheduler's cleanup read each one's first due row.
        List<CompletableFuture<SinkOutcome>> unanswered = new ArrayList<>();
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.tenantPolicies(HELD_AT_ONE))) {
            Pipeline pipeline = f.pipeline(holdingHeld(unanswered), b -> b.sinkDeadline(Duration.ofHours(1)));
            try {
                long start = f.now();
                for (int s = 0; s < 30; s++) {
                    for (int t = 0; t < 8; t++) {
                        f.ingest("h" + t + "_" + s, "held" + t, 0);
                    }
                    f.clock().advance(1_000);
                }
                CompletionStage<TickReport> first = pipeline.tick();
                assertThat(unanswered).hasSize(8);
                f.clock().advance(250);
                f.ingest("q", "quiet", 0);
                f.clock().advance(500);
                DispatchFixture.await(pipeline.tick());

                Measured measured = measure(f, () -> assertThat(pipeline.gauges().oldestDueAge())
                        .as("the held tenants' second rows (their first ones are in flight)")
                        .contains(Duration.ofMillis(f.now() - (start + 1_000))));
                assertNoFold(measured);
                assertThat(measured.scans()).as("reads of the active index or of due rows")
                        .noneMatch(sc -> sc.range().from().length > 0 && (sc.range().from()[0] == Prefixes.ACTIVE
                                || sc.range().from()[0] == Prefixes.DUE));

                // The held tenants' answers: their second rows are claimed, the cleanups move on.
                List<CompletableFuture<SinkOutcome>> answered = List.copyOf(unanswered);
                unanswered.clear();
                answered.forEach(u -> u.complete(SinkOutcome.delivered()));
                DispatchFixture.await(first);
                f.clock().advance(1_000);
                pipeline.tick(); // claims their second rows, which the sink holds again
                assertThat(unanswered).hasSize(8);
                assertThat(pipeline.gauges().oldestDueAge()).as("their third rows")
                        .contains(Duration.ofMillis(f.now() - (start + 2_000)));
            } finally {
                unanswered.forEach(u -> u.complete(SinkOutcome.delivered()));
                pipeline.close();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void oldestDueAgeAfter32StaleMarkersIsTheNextMarkersSecond(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir);
                Pipeline pipeline = f.pipeline(ScriptedSink.delivering(), b -> b)) {
            long start = f.now();
            List<io.ankusa.api.Hook> hooks = new ArrayList<>();
            for (int t = 0; t < 40; t++) {
                hooks.add(hook("h" + t, "t" + t, 0));
            }
            ingestAll(f, hooks);
            DeliveryLedger ledger = f.ledger();
            for (int t = 0; t < 40; t++) {
                long ord = f.ord("t" + t);
                ledger.claim(ord, ledger.dueForTenant(ord, f.now(), 0, 10, Long.MAX_VALUE));
            }
            f.clock().advance(5_000);
            f.ingest("late", "late", 0);
            f.clock().advance(5_000);

            assertThat(pipeline.gauges().oldestDueAge()).as("the 33rd marker's second start, not a scan of 40 tenants")
                    .contains(Duration.ofMillis(f.now() - start / 1000 * 1000));
            DispatchFixture.await(pipeline.tick());
            assertThat(f.queue().stats().pending()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void topTenantsByPending(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir);
                Pipeline pipeline = f.pipeline(ScriptedSink.delivering(), b -> b)) {
            List<io.ankusa.api.Hook> hooks = new ArrayList<>();
            for (int t = 1; t <= 120; t++) {
                for (int i = 0; i < t; i++) {
                    hooks.add(hook("p" + t + "_" + i, "t" + t, 0));
                }
            }
            hooks.add(hook("s", "scheduled-only", 0));
            hooks.add(hook("i", "inflight-only", 0));
            ingestAll(f, hooks);
            DeliveryLedger ledger = f.ledger();
            for (String tenant : List.of("scheduled-only", "inflight-only")) {
                long ord = f.ord(tenant);
                Claim claim = ledger.claim(ord, ledger.dueForTenant(ord, f.now(), 0, 10, Long.MAX_VALUE));
                if (tenant.equals("scheduled-only")) {
                    ledger.retry(claim.claimed().get(0), f.now(), "HTTP 503");
                }
            }

            List<TenantPending> top = pipeline.gauges().topTenantsByPending();

            assertThat(top).hasSize(100);
            assertThat(top.get(0)).isEqualTo(new TenantPending("t120", 120));
            assertThat(top.get(99)).isEqualTo(new TenantPending("t21", 21));
            assertThat(top).extracting(TenantPending::pending).isSortedAccordingTo((a, b) -> Long.compare(b, a));
            assertThat(top).allSatisfy(t -> assertThat(f.queue().pendingForTenant(t.tenantId()).pending()).isEqualTo(t.pending()));
            assertThat(top).extracting(TenantPending::tenantId).doesNotContain("scheduled-only", "inflight-only");

            // Deliver t120's rows: it leaves the list.
            long t120 = f.ord("t120");
            Claim claim = ledger.claim(t120, ledger.dueForTenant(t120, f.now(), 0, 500, Long.MAX_VALUE));
            claim.claimed().forEach(c -> ledger.delivered(c.row()));
            assertThat(pipeline.gauges().topTenantsByPending().get(0)).isEqualTo(new TenantPending("t119", 119));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPipelinesTopTenantsComeFromItsSchedulerNotFromAScanOfTheActiveIndex(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir);
                Pipeline pipeline = f.pipeline(ScriptedSink.delivering(), b -> b.rowsPerTick(1))) {
            List<io.ankusa.api.Hook> hooks = new ArrayList<>();
            for (int t = 1; t <= 120; t++) {
                for (int i = 0; i < t; i++) {
                    hooks.add(hook("p" + t + "_" + i, "t" + t, 0));
                }
            }
            ingestAll(f, hooks);
            DispatchFixture.await(pipeline.tick()); // the feed brings every tenant; t1's one row is delivered

            f.recorder().clear();
            f.scans().clear();
            List<TenantPending> top = pipeline.gauges().topTenantsByPending();
            assertThat(top).hasSize(100);
            assertThat(top.get(0)).isEqualTo(new TenantPending("t120", 120));
            assertThat(top.get(99)).isEqualTo(new TenantPending("t21", 21));
            long activeEntries = f.scans().scans().stream().filter(sc -> sc.range().from().length > 0
                    && sc.range().from()[0] == Prefixes.ACTIVE).mapToLong(CountedScan::entries).sum();
            // The oldest due age reads one page of at most 33 markers (32 stale ones skipped); the
            // index read of the top tenants would take all 120 tenants' markers.
            assertThat(activeEntries).as("active markers read (the oldest due age's page only)").isLessThanOrEqualTo(33);

            List<io.ankusa.api.Hook> late = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                late.add(hook("late_" + i, "late", 0));
            }
            ingestAll(f, late);
            DispatchFixture.await(pipeline.tick());
            assertThat(pipeline.gauges().topTenantsByPending().get(0).tenantId()).isEqualTo("late");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPipelinesGaugeReadsThePendingCountersOfChangedTenantsOnly(String backend) {
        // 600 tenants held at an in-flight limit of 1 by a sink that does not answer them: the
        // scheduler knows them all, and nothing changes their pending counts.
        List<CompletableFuture<SinkOutcome>> unanswered = new ArrayList<>();
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.tenantPolicies(HELD_AT_ONE))) {
            Pipeline pipeline = f.pipeline(holdingHeld(unanswered),
                    b -> b.rowsPerTick(2_048).concurrency(2_048).sinkDeadline(Duration.ofHours(1)));
            try {
                List<io.ankusa.api.Hook> hooks = new ArrayList<>();
                for (int t = 0; t < 600; t++) {
                    for (int i = 0; i <= t % 3; i++) {
                        hooks.add(hook("h" + t + "_" + i, "held" + t, 0));
                    }
                }
                ingestAll(f, hooks);
                pipeline.tick();
                assertThat(unanswered).hasSize(600);
                // The first measurements read every tenant the scheduler learnt of (512 at most each).
                pipeline.gauges();
                List<TenantPending> top = pipeline.gauges().topTenantsByPending();
                assertThat(top).hasSize(100).allSatisfy(t -> assertThat(t.pending()).isEqualTo(2));

                f.clock().advance(1_000);
                f.ingest("q1", "quiet", 0);
                for (int i = 0; i < 5; i++) {
                    f.ingest("busy" + i, "busy", 0);
                }
                pipeline.tick();
                f.recorder().clear();
                top = pipeline.gauges().topTenantsByPending();

                long countersRead = f.recorder().calls("counters").stream()
                        .flatMap(c -> c.keys().stream()).filter(k -> CounterKey.decode(k).ord() != 0).count();
                // Two tenants claimed (quiet, busy) and the sweep's 16; before, a measurement read 512.
                assertThat(countersRead).as("tenant counters read by one measurement").isLessThanOrEqualTo(2 + 16);
                assertThat(top).hasSize(100).allSatisfy(t -> assertThat(t.pending()).isEqualTo(2));
            } finally {
                unanswered.forEach(u -> u.complete(SinkOutcome.delivered()));
                pipeline.close();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aStartedPipelineReportsGaugesToItsListenersAndDeliversOnItsOwn(String backend) throws Exception {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            CountDownLatch reported = new CountDownLatch(1);
            AtomicReference<Gauges> last = new AtomicReference<>();
            CountDownLatch delivered = new CountDownLatch(3);
            ScriptedSink sink = new ScriptedSink(d -> {
                delivered.countDown();
                return SinkOutcome.delivered();
            });
            try (Pipeline pipeline = f.pipeline(sink, b -> b.gaugeInterval(Duration.ofMillis(20))
                    .tickInterval(Duration.ofMillis(10)).gaugeListener(g -> {
                        last.set(g);
                        reported.countDown();
                    }))) {
                pipeline.start();
                f.ingest("a", "t", 0, 1, 2);
                assertThat(delivered.await(60, TimeUnit.SECONDS)).isTrue();
                assertThat(reported.await(60, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(last.get()).isNotNull();
            assertThat(sink.hookIds()).containsExactly("a", "a", "a");
            f.assertConsistent();
            assertThat(f.queue().stats().bytes()).as("settled before close returned").isZero();
        }
    }
}
