package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.engine.MarkerCleanup;
import io.ankusa.keys.ActiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.testkit.ScriptedSink;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.HeldWriteStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pipeline's marker cleanup ({@link MarkerCleanup}, TEN-1 §5) with a writer's commit placed by
 * the cleanup's own seam between its steps — no timing. The writer is the queue's ingest writer;
 * its row is stamped with a second the tick already saw as stale, as a writer that read its clock
 * before the tick and committed after it would stamp it.
 */
class MarkerCleanupTest {

    @TempDir
    Path dir;

    /** Where the writer commits: between steps 1 and 2 (its marker is deleted), or between 2 and 3. */
    enum Placement {
        BETWEEN_FIRST_DUE_AND_DELETE, BETWEEN_DELETE_AND_VERIFY
    }

    static Stream<Arguments> backendsAndPlacements() {
        return io.ankusa.tests.queue.Backends.names()
                .flatMap(b -> Stream.of(Placement.values()).map(p -> Arguments.of(b, p)));
    }

    /** Ingests a hook for tenant t stamped {@code atMillis} (the clock is moved back and forth around it). */
    private static void lateWrite(DispatchFixture f, String id, long atMillis) {
        long now = f.now();
        f.clock().advance(atMillis - now);
        try {
            f.ingest(Hook.builder().id(id).sourceId("src").tenantId("t").payload("{}").sinks(0).build());
        } finally {
            f.clock().advance(now - f.now());
        }
    }

    /** Ingests and delivers one hook for tenant t in each of {@code seconds} (after the first): leaves stale markers. */
    private static void staleMarkers(DispatchFixture f, int seconds) {
        DeliveryLedger ledger = f.ledger();
        for (int s = 0; s < seconds; s++) {
            f.ingest("old" + s, "t", 0);
            long ord = f.ord("t");
            Claim claim = ledger.claim(ord, ledger.dueForTenant(ord, f.now(), 0, 10, Long.MAX_VALUE));
            claim.claimed().forEach(c -> ledger.delivered(c.row()));
            f.clock().advance(1_000);
        }
        f.clock().advance(5_000);
    }

    private static List<Long> scannedBuckets(DeliveryLedger ledger, long ord, long now) {
        return ledger.activeTenants(now, 4096).stream().filter(m -> m.ord() == ord).map(ActiveTenant::bucket).toList();
    }

    @ParameterizedTest(name = "{0}, writer {1}")
    @MethodSource("backendsAndPlacements")
    void cleanupDoesNotLoseAMarkerToAConcurrentEnqueue(String backend, Placement placement) {
        try (DispatchFixture f = DispatchFixture.onWallClock(backend, dir)) {
            staleMarkers(f, 1);
            long ord = f.ord("t");
            long now = f.now();
            List<Long> scanned = scannedBuckets(f.ledger(), ord, now);
            long stale = scanned.get(0);
            assertThat(scanned).containsExactly(stale);
            assertThat(stale).isLessThan(now / 1000);
            List<String> seen = new ArrayList<>();

            MarkerCleanup cleanup = new MarkerCleanup(f.ledger(), new MarkerCleanup.Interleaving() {
                @Override
                public void afterFirstDue(long o) {
                    if (placement == Placement.BETWEEN_FIRST_DUE_AND_DELETE) {
                        lateWrite(f, "late", stale * 1000 + 500);
                    }
                }

                @Override
                public void afterDelete(long o, Collection<Long> deleted) {
                    assertThat(deleted).containsExactly(stale);
                    if (placement == Placement.BETWEEN_DELETE_AND_VERIFY) {
                        lateWrite(f, "late", stale * 1000 + 500);
                        assertThat(f.fold().missingMarkers()).as("the writer's own marker stands").isEmpty();
                    } else {
                        assertThat(f.fold().missingMarkers()).as("step 2 deleted the writer's marker")
                                .containsExactly(new ActiveKey(stale, ord));
                    }
                    seen.add("between 2 and 3");
                }
            });
            Optional<DueRow> first = cleanup.clean(ord, scanned, now);

            assertThat(seen).as("the cleanup deleted the stale marker and ran the seam").hasSize(1);
            assertThat(first).map(DueRow::at).contains(stale * 1000 + 500);
            f.assertConsistent();
            assertThat(f.ledger().activeTenants(f.now(), 10)).extracting(ActiveTenant::bucket).containsExactly(stale);
            assertThat(f.ledger().dueForTenant(ord, f.now(), stale * 1000, 10, Long.MAX_VALUE)).hasSize(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aBatchStampedBeforeTheCleanupAndWrittenBetweenItsStepsKeepsItsMarker(String backend) throws Exception {
        // The writer stamps a batch in the later stale second; the committer's write of it waits.
        withStaleMarkersAndHeldWrites(backend, MarkerCleanupTest::stampedBeforeTheCleanup);
    }

    /** What runs on a fixture with two stale seconds of tenant t and a store that can hold a write. */
    @FunctionalInterface
    private interface HeldWriteCase {
        void run(DispatchFixture f, HeldWriteStore held, long ord, long now, List<Long> scanned) throws Exception;
    }

    /**
     * Runs {@code body} on a wall-clock fixture over a {@link HeldWriteStore} in which tenant t has
     * two stale marker seconds ({@code scanned}); a write the body held is released however it ends.
     */
    private void withStaleMarkersAndHeldWrites(String backend, HeldWriteCase body) throws Exception {
        AtomicReference<HeldWriteStore> store = new AtomicReference<>();
        try (DispatchFixture f = DispatchFixture.onWallClock(backend, dir, s -> {
            store.set(new HeldWriteStore(s));
            return store.get();
        })) {
            staleMarkers(f, 2);
            long ord = f.ord("t");
            long now = f.now();
            List<Long> scanned = scannedBuckets(f.ledger(), ord, now);
            assertThat(scanned).hasSize(2);
            HeldWriteStore held = store.get();
            try {
                body.run(f, held, ord, now, scanned);
            } finally {
                held.release();
            }
            f.assertConsistent();
        }
    }

    private static void stampedBeforeTheCleanup(DispatchFixture f, HeldWriteStore held, long ord, long now,
            List<Long> scanned) throws InterruptedException {
        long older = scanned.get(0);
        long stamped = scanned.get(1);
        held.holdNextWrite(ColumnFamilies.HOOKS, false);
        f.clock().advance(stamped * 1000 + 500 - now);
        CompletableFuture<Receipt> late = f.queue().ingest(
                Hook.builder().id("late").sourceId("src").tenantId("t").payload("{}").sinks(0).build());
        held.awaitHeld();
        f.clock().advance(now - f.now());
        // What the tick reads before its reads: the batch's stamp holds the horizon back.
        long horizon = Math.min(now, f.ledger().dueStamps().horizon());
        assertThat(horizon).isEqualTo(stamped * 1000 + 500);
        List<List<Long>> deletes = new ArrayList<>();

        MarkerCleanup cleanup = new MarkerCleanup(f.ledger(), new MarkerCleanup.Interleaving() {
            @Override
            public void afterFirstDue(long o) {
                // Step 1 did not see the row; the batch is written now, before step 2's deletes.
                held.release();
                QueueUnderTest.await(late);
            }

            @Override
            public void afterDelete(long o, Collection<Long> deleted) {
                deletes.add(List.copyOf(deleted));
                // Where a crash would leave the store if the deletes were durable and the check not run.
                assertThat(f.fold().missingMarkers()).as("no due row without its marker after step 2").isEmpty();
            }
        });
        Optional<DueRow> first = cleanup.clean(ord, scanned, horizon);

        assertThat(deletes).as("only the marker of the second before the stamp's is deleted")
                .containsExactly(List.of(older));
        assertThat(first).as("the row is not seen by step 1, nor needed by step 3").isEmpty();
        f.assertConsistent();
        assertThat(f.ledger().activeTenants(f.now(), 10)).extracting(ActiveTenant::bucket).containsExactly(stamped);
        assertThat(f.ledger().dueForTenant(ord, f.now(), 0, 10, Long.MAX_VALUE)).extracting(DueRow::at)
                .containsExactly(stamped * 1000 + 500);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTickDeletesNoMarkerOfAHeldStampsSecondUntilTheWriterIsDone(String backend) throws Exception {
        // Another tenant's batch, stamped in t's later stale second, is being written.
        withStaleMarkersAndHeldWrites(backend, MarkerCleanupTest::heldWhileTicking);
    }

    private static void heldWhileTicking(DispatchFixture f, HeldWriteStore held, long ord, long now, List<Long> scanned)
            throws InterruptedException {
        held.holdNextWrite(ColumnFamilies.HOOKS, false);
        f.clock().advance(scanned.get(1) * 1000 + 500 - now);
        CompletableFuture<Receipt> late = f.queue().ingest(
                Hook.builder().id("late").sourceId("src").tenantId("u").payload("{}").sinks(0).build());
        held.awaitHeld();
        f.clock().advance(now - f.now());

        try (Pipeline pipeline = f.pipeline(ScriptedSink.delivering(), b -> b)) {
            DispatchFixture.await(pipeline.tick());
            assertThat(f.ledger().activeTenants(f.now(), 10)).as("the held stamp's second keeps its marker")
                    .extracting(ActiveTenant::bucket).containsExactly(scanned.get(1));

            held.release();
            QueueUnderTest.await(late);
            DispatchFixture.await(pipeline.tick());
            DispatchFixture.await(pipeline.tick());
            assertThat(f.ledger().activeTenants(f.now(), 10)).as("deleted once the stamp was released").isEmpty();
            assertThat(f.queue().stats().pending()).as("the late row was delivered").isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void cleanupRestoresEveryDeletedSecondThatHoldsARowNotOnlyTheFirst(String backend) {
        try (DispatchFixture f = DispatchFixture.onWallClock(backend, dir)) {
            staleMarkers(f, 2);
            long ord = f.ord("t");
            long now = f.now();
            List<Long> scanned = scannedBuckets(f.ledger(), ord, now);
            assertThat(scanned).hasSize(2);
            MarkerCleanup cleanup = new MarkerCleanup(f.ledger(), new MarkerCleanup.Interleaving() {
                @Override
                public void afterFirstDue(long o) {
                    lateWrite(f, "late0", scanned.get(0) * 1000 + 100);
                    lateWrite(f, "late1", scanned.get(1) * 1000 + 100);
                }
            });

            cleanup.clean(ord, scanned, now);

            // With the spec's single firstDue in step 3, only the first second's marker would come back.
            f.assertConsistent();
            assertThat(f.ledger().activeTenants(f.now(), 10)).extracting(ActiveTenant::bucket)
                    .containsExactlyElementsOf(scanned);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void cleanupDeletesStaleMarkersAndKeepsTheFirstDueRows(String backend) {
        try (DispatchFixture f = DispatchFixture.onWallClock(backend, dir)) {
            staleMarkers(f, 3);
            f.ingest("now", "t", 0);
            long ord = f.ord("t");
            long now = f.now();
            List<Long> scanned = scannedBuckets(f.ledger(), ord, now);
            assertThat(scanned).hasSize(4);

            Optional<DueRow> first = new MarkerCleanup(f.ledger()).clean(ord, scanned, now);

            assertThat(first).map(DueRow::at).contains(now);
            assertThat(f.ledger().activeTenants(now, 10)).extracting(ActiveTenant::bucket).containsExactly(now / 1000);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void step1BeforeTheClaimSkipsTheRowsBeingClaimedAndTheDeletesRideInTheClaimsBatch(String backend) {
        try (DispatchFixture f = DispatchFixture.onWallClock(backend, dir)) {
            f.ingest("a", "t", 0);
            long first = f.now() / 1000;
            f.clock().advance(2_000);
            f.ingest("b", "t", 0);
            long second = f.now() / 1000;
            f.clock().advance(2_000);
            long ord = f.ord("t");
            long now = f.now();
            DeliveryLedger ledger = f.ledger();
            List<Long> scanned = scannedBuckets(ledger, ord, now);
            assertThat(scanned).containsExactly(first, second);
            List<DueRow> claiming = ledger.dueForTenant(ord, now, 0, 1, Long.MAX_VALUE);
            MarkerCleanup cleanup = new MarkerCleanup(ledger);

            MarkerCleanup.Cleaning cleaning = cleanup.prepare(Map.of(ord, scanned), Map.of(ord, claiming), now);
            assertThat(cleaning.stale()).as("the claimed row's second is stale").containsOnlyKeys(ord);
            assertThat(cleaning.stale().get(ord)).containsExactly(first);
            assertThat(ledger.activeTenants(now, 10)).as("nothing deleted before the claim").hasSize(2);
            Claim claim = ledger.claimAll(Map.of(ord, claiming), cleaning.stale());
            Map<Long, Optional<DueRow>> firsts = cleanup.finish(cleaning);

            assertThat(claim.claimed()).hasSize(1);
            assertThat(firsts.get(ord)).map(DueRow::at).map(at -> at / 1000).contains(second);
            assertThat(ledger.activeTenants(now, 10)).extracting(ActiveTenant::bucket).containsExactly(second);
            f.assertConsistent();
            ledger.delivered(claim.claimed().get(0).row());
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aMarkerOfTheCurrentSecondIsNeverDeleted(String backend) {
        try (DispatchFixture f = DispatchFixture.onWallClock(backend, dir)) {
            f.ingest("a", "t", 0);
            long ord = f.ord("t");
            DeliveryLedger ledger = f.ledger();
            Claim claim = ledger.claim(ord, ledger.dueForTenant(ord, f.now(), 0, 10, Long.MAX_VALUE));
            ledger.delivered(claim.claimed().get(0).row());
            long bucket = f.now() / 1000;

            assertThat(new MarkerCleanup(ledger).clean(ord, List.of(bucket), f.now())).isEmpty();
            ledger.deleteMarkers(ord, List.of(bucket, bucket + 1));

            assertThat(ledger.activeTenants(f.now(), 10)).extracting(ActiveTenant::bucket).containsExactly(bucket);
            f.clock().advance(1_000);
            new MarkerCleanup(ledger).clean(ord, List.of(bucket), f.now());
            assertThat(ledger.activeTenants(f.now(), 10)).as("stale one second later").isEmpty();
        }
    }
}
