package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ankusa.api.Rate;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.keys.Prefixes;
import io.ankusa.testkit.ScriptedSink;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.ScanCountingStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fair dispatch: deficit round-robin across tenants, weights, per-tenant in-flight and
 * delivery-rate limits, on both backends, one tick at a time with a hand-moved clock.
 */
class FairDispatchTest {

    @TempDir
    Path dir;

    /** Ingests {@code count} one-sink hooks for {@code tenant}, pipelined through the writer. */
    private static void ingestMany(DispatchFixture f, String tenant, int count) {
        List<CompletableFuture<?>> receipts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            receipts.add(f.queue().ingest(QueueUnderTest.hook(tenant + "-" + i, tenant, 0)));
        }
        receipts.forEach(CompletableFuture::join);
    }

    private static Map<String, Long> deliveredByTenant(ScriptedSink sink) {
        return sink.seen().stream().collect(Collectors.groupingBy(Delivery::tenantId, Collectors.counting()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aFloodingTenantDoesNotDelayAQuietTenant(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            ingestMany(f, "flood", 3_000);
            f.clock().advance(1_000);
            for (int q = 0; q < 10; q++) {
                f.ingest("quiet" + q, "quiet" + q, 0);
            }
            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b.rowsPerTick(256).concurrency(1024))) {
                TickReport first = DispatchFixture.await(pipeline.tick());
                assertThat(first.claimed()).isEqualTo(256);
                Map<String, Long> delivered = deliveredByTenant(sink);
                for (int q = 0; q < 10; q++) {
                    assertThat(delivered.get("quiet" + q)).as("quiet%d in the first tick", q).isEqualTo(1L);
                }
                assertThat(delivered.get("flood")).isEqualTo(246L);
                while (f.queue().stats().pending() > 0) {
                    DispatchFixture.await(pipeline.tick());
                }
            }
            assertThat(sink.seen()).hasSize(3_010);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void weightedTenantsShareDeliveriesInProportion(String backend) {
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT, Map.of(
                "w1", TenantPolicy.DEFAULT.withWeight(1),
                "w2", TenantPolicy.DEFAULT.withWeight(2),
                "w4", TenantPolicy.DEFAULT.withWeight(4)));
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.tenantPolicies(policies))) {
            for (String tenant : List.of("w1", "w2", "w4")) {
                ingestMany(f, tenant, 600);
            }
            ScriptedSink sink = ScriptedSink.delivering();
            // 112 rows a tick: one round (7 × 16) of the three saturated tenants.
            try (Pipeline pipeline = f.pipeline(sink, b -> b.rowsPerTick(112).concurrency(1024))) {
                for (int t = 0; t < 8; t++) {
                    assertThat(DispatchFixture.await(pipeline.tick()).claimed()).isEqualTo(112);
                }
            }
            Map<String, Long> delivered = deliveredByTenant(sink);
            assertThat(delivered.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(896);
            double unit = 896 / 7.0;
            assertThat((double) delivered.get("w1")).isCloseTo(unit, within(unit * 0.10));
            assertThat((double) delivered.get("w2")).isCloseTo(2 * unit, within(2 * unit * 0.10));
            assertThat((double) delivered.get("w4")).isCloseTo(4 * unit, within(4 * unit * 0.10));
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTenantOfLargePayloadsGetsProportionallyFewerRowsATurnTheByteQuantum(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            String large = "x".repeat(60_000);
            List<CompletableFuture<?>> receipts = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                receipts.add(f.queue().ingest(io.ankusa.api.Hook.builder().id("large-" + i).sourceId("test")
                        .tenantId("large").payload(large).sinks(0).build()));
            }
            receipts.forEach(CompletableFuture::join);
            ingestMany(f, "small", 300);
            ScriptedSink sink = ScriptedSink.delivering();
            // A weight-1 turn: 16 rows or 256 KiB, whichever runs out first: 16 small rows, 4 large ones.
            try (Pipeline pipeline = f.pipeline(sink, b -> b.rowsPerTick(32).concurrency(1024).quantumBytes(256 << 10))) {
                for (int t = 0; t < 8; t++) {
                    assertThat(DispatchFixture.await(pipeline.tick()).claimed()).isEqualTo(32);
                }
            }
            Map<String, Long> delivered = deliveredByTenant(sink);
            assertThat(delivered.get("large") + delivered.get("small")).isEqualTo(256);
            // Rows alone would split every tick evenly (16 and 16).
            assertThat(delivered.get("large")).as("large rows against small ones, 4 to 16 a turn")
                    .isLessThanOrEqualTo(delivered.get("small") / 2).isGreaterThanOrEqualTo(delivered.get("small") / 8);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTenantAtItsInflightLimitDoesNotBlockOthers(String backend) {
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT,
                Map.of("busy", TenantPolicy.DEFAULT.withMaxInflight(2)));
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.tenantPolicies(policies))) {
            ingestMany(f, "busy", 10);
            ingestMany(f, "free", 5);
            List<CompletableFuture<SinkOutcome>> held = new ArrayList<>();
            List<String> seen = new ArrayList<>();
            Function<Delivery, CompletableFuture<SinkOutcome>> answer = d -> {
                synchronized (held) {
                    seen.add(d.tenantId());
                    if (d.tenantId().equals("busy")) {
                        CompletableFuture<SinkOutcome> later = new CompletableFuture<>();
                        held.add(later);
                        return later;
                    }
                }
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            };
            try (Pipeline pipeline = f.pipeline(answer::apply, b -> b.concurrency(1024))) {
                CompletableFuture<TickReport> first = pipeline.tick().toCompletableFuture();
                assertThat(first.getNow(null)).as("busy's settles are held").isNull();
                assertThat(f.queue().pendingForTenant("busy").inflight()).isEqualTo(2);
                assertThat(f.queue().pendingForTenant("free").pending()).isZero();

                ingestMany(f, "free", 3);
                f.recorder().clear();
                TickReport second = DispatchFixture.await(pipeline.tick());
                assertThat(second.claimed()).as("free's new rows, none of busy's").isEqualTo(3);
                assertThat(dueScans(f, f.ord("busy"))).as("due-range reads of the tenant at its limit").isZero();
                assertThat(f.queue().pendingForTenant("busy").inflight()).isEqualTo(2);

                synchronized (held) {
                    held.forEach(h -> h.complete(SinkOutcome.delivered()));
                    held.clear();
                }
                DispatchFixture.await(first);
                CompletableFuture<TickReport> third = pipeline.tick().toCompletableFuture();
                assertThat(f.queue().pendingForTenant("busy").inflight()).as("two settled, two more claimed").isEqualTo(2);
                synchronized (held) {
                    held.forEach(h -> h.complete(SinkOutcome.delivered()));
                }
                DispatchFixture.await(third);
            }
            assertThat(seen.stream().filter("busy"::equals).count()).isEqualTo(4);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRateLimitedTenantIsDeliveredAtItsRate(String backend) {
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT,
                Map.of("slow", TenantPolicy.DEFAULT.withDeliveryRate(new Rate(10, 10))));
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.tenantPolicies(policies))) {
            ingestMany(f, "slow", 200);
            ingestMany(f, "fast", 200);
            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b.rowsPerTick(256).concurrency(1024))) {
                DispatchFixture.await(pipeline.tick());
                assertThat(deliveredByTenant(sink)).containsEntry("fast", 200L).containsEntry("slow", 10L);
                // Five seconds of 100 ms ticks on the injected clock: 10 tokens a second.
                for (int t = 0; t < 50; t++) {
                    f.clock().advance(100);
                    DispatchFixture.await(pipeline.tick());
                }
            }
            assertThat(deliveredByTenant(sink).get("slow")).isEqualTo(10L + 50L);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRateLimitedTenantKeepsItsRateWhenTicksComeLaterThanItsBurstLasts(String backend) {
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT,
                Map.of("slow", TenantPolicy.DEFAULT.withDeliveryRate(new Rate(100, 10))));
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.tenantPolicies(policies))) {
            ingestMany(f, "slow", 2_000);
            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b.rowsPerTick(1024).concurrency(2048))) {
                DispatchFixture.await(pipeline.tick());
                assertThat(deliveredByTenant(sink)).containsEntry("slow", 10L);
                // Ticks 300 ms apart on the injected clock, three times the 100 ms a burst of 10
                // lasts at 100/s: each tick takes the 30 tokens earned since the last, not 10.
                for (int t = 0; t < 30; t++) {
                    f.clock().advance(300);
                    DispatchFixture.await(pipeline.tick());
                }
                assertThat(deliveredByTenant(sink).get("slow")).as("9 s at 100/s after the first burst")
                        .isEqualTo(10L + 30 * 30);
                // A stall of 5 s: what it earned over the last second counts, not all 5 s of it.
                f.clock().advance(5_000);
                DispatchFixture.await(pipeline.tick());
                assertThat(deliveredByTenant(sink).get("slow")).as("a burst plus one second of tokens")
                        .isEqualTo(10L + 30 * 30 + 10 + 100);
            }
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theTickCostDoesNotGrowWithTheBacklog(String backend) {
        TenantPolicies policies = TenantPolicies.of(TenantPolicy.DEFAULT,
                Map.of("backlog", TenantPolicy.DEFAULT.withMaxInflight(1)));
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.tenantPolicies(policies))) {
            List<CompletableFuture<SinkOutcome>> held = new ArrayList<>();
            Function<Delivery, CompletableFuture<SinkOutcome>> answer = d -> {
                if (d.tenantId().equals("backlog")) {
                    CompletableFuture<SinkOutcome> later = new CompletableFuture<>();
                    synchronized (held) {
                        held.add(later);
                    }
                    return later;
                }
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            };
            int[] backlogSeconds = {0};
            try (Pipeline pipeline = f.pipeline(answer::apply, b -> b.concurrency(1024))) {
                // The backlog tenant is held at its in-flight limit (1) by a sink that never answers
                // it: its due rows, one per second, pile up behind one marker each.
                Runnable growBacklog = () -> {
                    f.ingest("backlog-" + backlogSeconds[0]++, "backlog", 0);
                    f.clock().advance(1_000);
                };
                for (int s = 0; s < 60; s++) {
                    growBacklog.run();
                }
                long[] small = costOfATick(f, pipeline);
                for (int s = 0; s < 600; s++) {
                    growBacklog.run();
                }
                long[] large = costOfATick(f, pipeline);
                synchronized (held) {
                    held.forEach(h -> h.complete(SinkOutcome.retry("HTTP 503")));
                }
                assertThat(large).as("store calls and entries scanned by a tick, 660 seconds of backlog vs 60")
                        .containsExactly(small);
            }
            f.assertConsistent();
        }
    }

    /**
     * The store calls and scanned entries of a steady tick that delivers one new hook for each of
     * 8 quiet tenants (after a tick that lets the feed catch up with what was just ingested).
     */
    private static long[] costOfATick(DispatchFixture f, Pipeline pipeline) {
        pipeline.tick(); // the catch-up tick (it may claim the backlog tenant's one held row: not awaited)
        f.clock().advance(1_000);
        for (int q = 0; q < 8; q++) {
            f.ingest("quiet-" + q + "-" + f.now(), "quiet" + q, 0);
        }
        f.recorder().clear();
        f.scans().clear();
        TickReport tick = DispatchFixture.await(pipeline.tick());
        assertThat(tick.claimed()).isEqualTo(8);
        // The dispatcher's reads: scans of the active index and of due ranges (housekeeping may
        // read other families meanwhile).
        long calls = f.recorder().calls("scan").stream().map(c -> c.range().orElseThrow().from())
                .filter(FairDispatchTest::dispatchRange).count();
        long entries = f.scans().scans().stream().filter(s -> dispatchRange(s.range().from()))
                .mapToLong(ScanCountingStore.CountedScan::entries).sum();
        return new long[] {calls, entries};
    }

    private static boolean dispatchRange(byte[] from) {
        return from.length > 0 && (from[0] == Prefixes.ACTIVE || from[0] == Prefixes.DUE);
    }

    /** How many of the recorded scans read tenant {@code ord}'s due range. */
    static long dueScans(DispatchFixture f, long ord) {
        return f.recorder().calls("scan").stream().map(c -> c.range().orElseThrow().from())
                .filter(from -> from.length >= 5 && from[0] == Prefixes.DUE)
                .filter(from -> (ByteBuffer.wrap(from, 1, 4).getInt() & 0xFFFF_FFFFL) == ord)
                .count();
    }
}
