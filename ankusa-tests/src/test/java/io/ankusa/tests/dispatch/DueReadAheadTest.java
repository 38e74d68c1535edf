package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.engine.MarkerCleanup;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.keys.ActiveKey;
import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRead;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.store.KeyRange;
import io.ankusa.testkit.ScriptedSink;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scheduler's due read with the row after it ({@code dueForTenantAhead}, one seek) and the
 * marker cleanup's first step taken from it instead of a seek of its own: the same answer as the
 * cleanup's own read, and a row written after the read still keeps its marker (step 3).
 */
class DueReadAheadTest {

    @TempDir
    Path dir;

    /** Tenant t: rows a (second 1), b and c (second 3), and a retry of a due far in the future. */
    private static long seed(DispatchFixture f) {
        f.ingest("x", "t", 0);
        long ord = f.ord("t");
        DeliveryLedger ledger = f.ledger();
        Claim retried = ledger.claim(ord, ledger.dueForTenant(ord, f.now(), 0, 1, Long.MAX_VALUE));
        ledger.retry(retried.claimed().get(0), f.now() + 3_600_000, "later");
        f.ingest("a", "t", 0);
        f.clock().advance(2_000);
        f.ingest("b", "t", 0);
        f.ingest("c", "t", 0);
        f.clock().advance(2_000);
        return ord;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theReadGivesDueForTenantsRowsAndTheNextStoredRowWhateverItsDueTime(String backend) {
        try (DispatchFixture f = DispatchFixture.onWallClock(backend, dir)) {
            long ord = seed(f);
            DeliveryLedger ledger = f.ledger();
            long now = f.now();
            List<DueRow> all = ledger.dueForTenant(ord, Long.MAX_VALUE, 0, 100, Long.MAX_VALUE);
            assertThat(all).hasSize(4);
            for (int limit = 1; limit <= 4; limit++) {
                DueRead read = ledger.dueForTenantAhead(ord, now, 0, limit, Long.MAX_VALUE);
                List<DueRow> rows = ledger.dueForTenant(ord, now, 0, limit, Long.MAX_VALUE);
                assertThat(read.rows()).as("limit %d", limit).isEqualTo(rows);
                assertThat(read.next()).as("limit %d", limit).contains(all.get(rows.size()));
            }
            long oneRow = all.get(0).size();
            DueRead byBytes = ledger.dueForTenantAhead(ord, now, 0, 10, oneRow + 1);
            assertThat(byBytes.rows()).containsExactly(all.get(0));
            assertThat(byBytes.next()).contains(all.get(1));
            DueRead future = ledger.dueForTenantAhead(ord, now, all.get(3).at(), 10, Long.MAX_VALUE);
            assertThat(future.rows()).isEmpty();
            assertThat(future.next()).contains(all.get(3));
            assertThat(ledger.dueForTenantAhead(ord, Long.MAX_VALUE, 0, 10, Long.MAX_VALUE).next()).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void step1FromTheSchedulersReadFindsWhatItsOwnSeekFinds(String backend) {
        try (DispatchFixture f = DispatchFixture.onWallClock(backend, dir)) {
            long ord = seed(f);
            DeliveryLedger ledger = f.ledger();
            long now = f.now();
            List<Long> scanned = ledger.activeTenants(now, 4096).stream().filter(m -> m.ord() == ord)
                    .map(ActiveTenant::bucket).toList();
            long fromAt = scanned.get(0) * 1000;
            MarkerCleanup cleanup = new MarkerCleanup(ledger);
            for (int limit = 1; limit <= 4; limit++) {
                DueRead read = ledger.dueForTenantAhead(ord, now, fromAt, limit, Long.MAX_VALUE);
                for (int claimed = 0; claimed <= read.rows().size(); claimed++) {
                    Map<Long, List<DueRow>> claiming = Map.of(ord, read.rows().subList(0, claimed));
                    MarkerCleanup.Cleaning seek = cleanup.prepare(Map.of(ord, scanned), claiming, now);
                    MarkerCleanup.Cleaning fromRead = cleanup.prepare(Map.of(ord, scanned), claiming, Map.of(ord, read), now);
                    assertThat(fromRead).as("limit %d, claimed %d", limit, claimed).isEqualTo(seek);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTickReadsEachVisitedTenantsDueRangeOnceWhenItsRowsFitTheTick(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            for (int t = 0; t < 20; t++) {
                f.ingest("h" + t, "t" + t, 0);
                f.ingest("g" + t, "t" + t, 0);
            }
            f.clock().advance(1_000);
            ScriptedSink sink = ScriptedSink.delivering();
            try (Pipeline pipeline = f.pipeline(sink, b -> b.rowsPerTick(64).concurrency(1024))) {
                f.scans().clear();
                TickReport report = DispatchFixture.await(pipeline.tick());

                assertThat(report.claimed()).isEqualTo(40);
                long dueScans = f.scans().scans().stream()
                        .filter(s -> s.family().equals(io.ankusa.keys.ColumnFamilies.INDEX))
                        .map(s -> s.range()).map(KeyRange::from)
                        .filter(from -> from.length > 0 && from[0] == 'D').count();
                // The scheduler's read (step 1 comes with it) and the check of the deleted second (step 3).
                assertThat(dueScans).isEqualTo(40);
            }
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRowBeforeARaisedFloorKeepsItsMarkerAndIsFoundByTheCheck(String backend) {
        try (DispatchFixture f = DispatchFixture.onWallClock(backend, dir)) {
            f.ingest("early", "t", 0);
            long early = f.now();
            f.clock().advance(500);
            f.ingest("floor", "t", 0);
            long floorAt = f.now();
            f.clock().advance(3_000);
            long ord = f.ord("t");
            DeliveryLedger ledger = f.ledger();
            long now = f.now();
            List<Long> scanned = List.of(ActiveKey.bucketOf(early));
            assertThat(ActiveKey.bucketOf(floorAt)).isEqualTo(scanned.get(0));
            DueRead read = ledger.dueForTenantAhead(ord, now, floorAt, 10, Long.MAX_VALUE);
            assertThat(read.rows()).extracting(DueRow::at).containsExactly(floorAt);

            MarkerCleanup cleanup = new MarkerCleanup(ledger);
            MarkerCleanup.Cleaning cleaning = cleanup.prepare(Map.of(ord, scanned), Map.of(ord, read.rows()),
                    Map.of(ord, read), now);
            Claim claim = ledger.claimAll(Map.of(ord, read.rows()), cleaning.stale());
            Map<Long, Optional<DueRow>> firsts = cleanup.finish(cleaning);

            assertThat(claim.claimed()).hasSize(1);
            assertThat(firsts.get(ord)).as("the check found the row before the floor").map(DueRow::at).contains(early);
            assertThat(ledger.activeTenants(now, 10)).extracting(ActiveTenant::bucket).containsExactly(scanned.get(0));
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRowWrittenIntoAStaleSecondAfterTheReadKeepsItsMarker(String backend) {
        try (DispatchFixture f = DispatchFixture.onWallClock(backend, dir)) {
            f.ingest("a", "t", 0);
            long stale = f.now();
            f.clock().advance(3_000);
            long ord = f.ord("t");
            DeliveryLedger ledger = f.ledger();
            long now = f.now();
            List<Long> scanned = List.of(ActiveKey.bucketOf(stale));
            DueRead read = ledger.dueForTenantAhead(ord, now, scanned.get(0) * 1000, 10, Long.MAX_VALUE);
            assertThat(read.rows()).hasSize(1);
            assertThat(read.next()).isEmpty();
            // A writer that read its clock in the stale second commits after the scheduler's read.
            f.clock().advance(stale - now);
            f.ingest(Hook.builder().id("late").sourceId("src").tenantId("t").payload("{}").sinks(0).build());
            f.clock().advance(now - f.now());

            MarkerCleanup cleanup = new MarkerCleanup(ledger);
            MarkerCleanup.Cleaning cleaning = cleanup.prepare(Map.of(ord, scanned), Map.of(ord, read.rows()),
                    Map.of(ord, read), now);
            assertThat(cleaning.stale().get(ord)).as("the read saw no row after the claimed one").containsExactly(scanned.get(0));
            Claim claim = ledger.claimAll(Map.of(ord, read.rows()), cleaning.stale());
            Map<Long, Optional<DueRow>> firsts = cleanup.finish(cleaning);

            assertThat(claim.claimed()).hasSize(1);
            assertThat(firsts.get(ord)).map(DueRow::at).contains(stale);
            assertThat(ledger.activeTenants(now, 10)).extracting(ActiveTenant::bucket).containsExactly(scanned.get(0));
            f.assertConsistent();
        }
    }
}
