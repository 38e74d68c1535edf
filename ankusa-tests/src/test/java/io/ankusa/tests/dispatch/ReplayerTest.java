package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.DeadLetterCursor;
import io.ankusa.api.DeadLetterPage;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.DeliveryState;
import io.ankusa.api.Receipt;
import io.ankusa.api.StoredDelivery;
import io.ankusa.dispatch.DeliveryReplay;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.ReplayPage;
import io.ankusa.dispatch.ReplayResult;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.ledger.DeadEntry;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.testkit.ScriptedSink;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Replay of dead letters by tenant, by hook id and by pages of the node's DLQ. */
class ReplayerTest {

    @TempDir
    Path dir;

    /** Dead-letters hooks d0..d(n-1): hook i for tenant t(i % tenants), one second apart, sinks 0 and 1. */
    private static void deadLetters(DispatchFixture f, int n, int tenants) {
        try (Pipeline pipeline = f.pipeline(new ScriptedSink(d -> SinkOutcome.dead("HTTP 410")), b -> b)) {
            for (int i = 0; i < n; i++) {
                f.ingest("d" + i, "t" + (i % tenants), 0, 1);
                DispatchFixture.await(pipeline.tick());
                f.clock().advance(1_000);
            }
        }
        assertThat(f.queue().stats().dead()).isEqualTo(2L * n);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void replayTenantRevivesThatTenantsDeadRowsOnly(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            deadLetters(f, 6, 2);
            Replayer replayer = Replayer.of(f.queue());

            assertThat(replayer.replayTenant("t1").revived()).isEqualTo(6);
            assertThat(replayer.replayTenant("t1").revived()).as("nothing left").isZero();
            assertThat(replayer.replayTenant("nobody").revived()).isZero();

            assertThat(f.queue().deadForTenant("t1").dead()).isZero();
            assertThat(f.queue().pendingForTenant("t1").pending()).isEqualTo(6);
            assertThat(f.queue().deadForTenant("t0").dead()).isEqualTo(6);
            f.assertConsistent();
            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b)) {
                assertThat(DispatchFixture.await(pipeline.tick()).delivered()).isEqualTo(6);
            }
            assertThat(sink.hookIds()).containsExactlyInAnyOrder("d1", "d1", "d3", "d3", "d5", "d5");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aReplayThatFindsNothingSaysWhyATenantAndHookIdSwappedIsAnUnknownTenant(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            deadLetters(f, 4, 2);
            Replayer replayer = Replayer.of(f.queue());

            assertThat(replayer.replayHook("d2", "t0").match()).as("arguments swapped")
                    .isEqualTo(ReplayResult.Match.UNKNOWN_TENANT);
            assertThat(replayer.replayTenant("nobody").match()).isEqualTo(ReplayResult.Match.UNKNOWN_TENANT);
            assertThat(replayer.replayHook("t0", "d3").match()).as("d3 is t1's")
                    .isEqualTo(ReplayResult.Match.NO_DEAD_LETTER);
            assertThat(replayer.replayHook("t0", "d2"))
                    .isEqualTo(new ReplayResult(ReplayResult.Match.MATCHED, 2, 0, 0));
            assertThat(replayer.replayHook("t0", "d2").match()).as("already revived")
                    .isEqualTo(ReplayResult.Match.NO_DEAD_LETTER);
            assertThat(f.queue().stats().dead()).as("nothing else moved").isEqualTo(6);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void replayHookRevivesEverySinkOfThatHookInItsTenant(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            deadLetters(f, 6, 2);
            Replayer replayer = Replayer.of(f.queue());

            assertThat(replayer.replayHook("t0", "d2").revived()).isEqualTo(2);
            assertThat(replayer.replayHook("t0", "d3").revived()).as("d3 is t1's").isZero();
            assertThat(replayer.replayHook("t0", "d2").revived()).as("already revived").isZero();

            assertThat(f.queue().stats().dead()).isEqualTo(10);
            assertThat(f.ledger().deadEntries(f.ord("t0"), Optional.empty(), 10)).extracting(DeadEntry::hookId)
                    .containsExactly("d0", "d0", "d4", "d4");
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void replayPagesWalkTheNodesDlqNewestFirstAcrossTenants(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            deadLetters(f, 5, 3);
            Replayer replayer = Replayer.of(f.queue());

            DeadLetterPage listed = f.queue().deadLetters(DeadLetterQuery.all().limit(4));
            ReplayPage first = replayer.replayPage(4);
            assertThat(first.revived()).isEqualTo(4);
            assertThat(first.next()).as("the cursor the listing of the same page gives").isEqualTo(listed.next()).isPresent();
            assertThat(f.ledger().deadPage(Optional.empty(), 10)).extracting(DeadEntry::hookId)
                    .as("the newest four (d4, d3 with both sinks) were revived").containsExactly("d2", "d2", "d1", "d1", "d0", "d0");

            ReplayPage second = replayer.replayPage(DeadLetterCursor.parse(first.next().orElseThrow().token()), 4);
            assertThat(second.revived()).isEqualTo(4);
            assertThat(second.next()).isPresent();
            ReplayPage third = replayer.replayPage(second.next().orElseThrow(), 4);
            assertThat(third.revived()).isEqualTo(2);
            assertThat(third.next()).as("the oldest letter reached").isEmpty();
            assertThat(replayer.replayPage(new DeadLetterCursor(0, 0, 0), 4).revived()).isZero();

            assertThat(f.queue().stats().dead()).isZero();
            assertThat(f.queue().stats().pending()).isEqualTo(10);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aPageThatEndsOnTheOldestLetterHasNoNext(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            deadLetters(f, 2, 1);
            Replayer replayer = Replayer.of(f.queue());

            ReplayPage page = replayer.replayPage(4);

            assertThat(page.revived()).isEqualTo(4);
            assertThat(page.next()).as("exactly the limit, nothing older: no empty page to follow").isEmpty();
            assertThatThrownBy(() -> replayer.replayPage(0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> replayer.replayPage(DeadLetterQuery.MAX_LIMIT + 1))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void replayDeliveryRevivesThatOneSinkOfThatHookAndAPipelineDeliversIt(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            Receipt first;
            try (Pipeline pipeline = f.pipeline(new ScriptedSink(d -> SinkOutcome.dead("HTTP 410")), b -> b)) {
                first = f.ingest("d0", "t0", 0, 1);
                f.ingest("d1", "t0", 0, 1);
                DispatchFixture.await(pipeline.tick());
            }
            assertThat(f.queue().stats().dead()).isEqualTo(4);
            Replayer replayer = Replayer.of(f.queue());
            f.clock().advance(1_000);

            assertThat(replayer.replayDelivery("t0", first.seq(), 1)).isEqualTo(DeliveryReplay.REPLAYED);

            assertThat(f.queue().hook("t0", first.seq()).orElseThrow().deliveries())
                    .extracting(StoredDelivery::sink, StoredDelivery::state)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(0, DeliveryState.DEAD),
                            org.assertj.core.groups.Tuple.tuple(1, DeliveryState.DUE));
            assertThat(f.queue().deadForTenant("t0").dead()).isEqualTo(3);
            assertThat(f.queue().pendingForTenant("t0").pending()).isEqualTo(1);
            AuditEntry audit = f.queue().auditTrail(1).get(0);
            assertThat(audit.action()).isEqualTo(AuditAction.REPLAY);
            assertThat(audit.tenantId()).isEqualTo("t0");
            assertThat(audit.counts()).isEqualTo(Map.of("revived", 1L));
            f.assertConsistent();

            assertThat(replayer.replayDelivery("t0", first.seq(), 1)).as("due now, not dead")
                    .isEqualTo(DeliveryReplay.NOT_DEAD);
            assertThat(replayer.replayDelivery("t0", first.seq(), 7)).as("no such sink").isEqualTo(DeliveryReplay.NOT_FOUND);
            assertThat(replayer.replayDelivery("t1", first.seq(), 0)).as("unknown tenant")
                    .isEqualTo(DeliveryReplay.NOT_FOUND);
            assertThat(replayer.replayDelivery("t0", first.seq() + 100, 0)).as("no such hook")
                    .isEqualTo(DeliveryReplay.NOT_FOUND);
            assertThat(f.queue().auditTrail(10)).as("only the replay that revived is audited").hasSize(1);

            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b)) {
                assertThat(DispatchFixture.await(pipeline.tick()).delivered()).isEqualTo(1);
            }
            List<Delivery> seen = sink.seen();
            assertThat(seen).extracting(Delivery::hookId).containsExactly("d0");
            assertThat(seen).extracting(Delivery::sink).containsExactly(1);
            assertThat(f.queue().hook("t0", first.seq()).orElseThrow().delivery(1))
                    .hasValue(StoredDelivery.finished(1));
            assertThat(f.queue().deadForTenant("t0").dead()).as("the other three stay dead").isEqualTo(3);
            assertThat(replayer.replayDelivery("t0", first.seq(), 1)).as("delivered").isEqualTo(DeliveryReplay.NOT_DEAD);
            f.assertConsistent();
        }
    }
}
