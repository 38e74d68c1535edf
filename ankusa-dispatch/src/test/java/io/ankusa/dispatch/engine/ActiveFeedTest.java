package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.keys.ActiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.queue.ledger.DueStamps;
import io.ankusa.store.Durability;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.dispatch.DispatchFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The active feed's pass starts where {@code DueStamps} says a marker it has not seen can be: at
 * the second of the horizon read before the last pass began. So a caught-up feed does not read
 * the markers it offered already again every tick, and a marker committed far behind the cursor
 * by a writer that held its stamp all along is still offered by the next pass.
 */
class ActiveFeedTest {

    private static final int PAGE = 256;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aCaughtUpFeedDoesNotOfferTheMarkersOfEarlierSecondsAgain(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            for (int second = 0; second < 3; second++) {
                for (int t = 0; t < 20; t++) {
                    f.ingest("h-" + second + "-" + t, "tenant-" + t, 1);
                }
                f.clock().advance(1_000);
            }
            ActiveFeed feed = new ActiveFeed(f.ledger());
            DueStamps stamps = f.ledger().dueStamps();
            Map<Long, List<Long>> first = feed.next(f.now(), stamps.horizon(), PAGE);
            assertThat(first).hasSize(20);
            assertThat(feed.caughtUp()).isTrue();

            // Two seconds later, no writer holding a stamp: the next pass starts at the present.
            f.clock().advance(2_000);
            for (int tick = 0; tick < 5; tick++) {
                f.clock().advance(10);
                assertThat(feed.next(f.now(), stamps.horizon(), PAGE)).as("page of tick %d", tick).isEmpty();
            }

            // A new row of this second is offered.
            f.ingest("h-new", "tenant-0", 1);
            assertThat(feed.next(f.now(), stamps.horizon(), PAGE)).containsOnlyKeys(f.ord("tenant-0"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aMarkerCommittedBehindTheCursorUnderAHeldStampIsOfferedByTheNextPass(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("h-0", "early", 1);
            long ord = f.ord("early");
            DueStamps stamps = f.ledger().dueStamps();
            ActiveFeed feed = new ActiveFeed(f.ledger());
            assertThat(feed.next(f.now(), stamps.horizon(), PAGE)).containsOnlyKeys(ord);
            try (DueStamps.Held held = stamps.hold()) {
                long stampedSecond = Math.floorDiv(held.millis(), 1000);
                // The writer stalls for ten seconds while the feed keeps catching up.
                for (int tick = 0; tick < 10; tick++) {
                    f.clock().advance(1_000);
                    feed.next(f.now(), stamps.horizon(), PAGE);
                }
                // It commits its row's marker in the second of its stamp, far behind the cursor.
                f.store().commit(new WriteBatch().put(ColumnFamilies.INDEX,
                        new ActiveKey(stampedSecond, ord + 1).encode(), new byte[0]), Durability.SYNC);
                Map<Long, List<Long>> page = feed.next(f.now(), stamps.horizon(), PAGE);
                assertThat(page).as("the page after the commit").containsKey(ord + 1);
                assertThat(page.get(ord + 1)).containsExactly(stampedSecond);
            }
        }
    }
}
