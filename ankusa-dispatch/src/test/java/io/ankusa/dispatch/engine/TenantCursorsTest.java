package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TenantCursorsTest {

    /** A cleanup's "now" after every row of these tests is due. */
    private static final long LATER = 1_700_000_100_000L;

    private static Optional<DueRow> firstAt(long at) {
        return Optional.of(new DueRow(7, at, 1, 0, 10, DueKind.FIRST_ATTEMPT));
    }

    @Test
    void aTenantWithoutAFloorStartsAtItsEarliestScannedMarker() {
        assertThat(new TenantCursors().floor(7, 1_700_000_000)).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void theFloorSkipsTheClaimedRowsOfTheEarliestMarkerSecond() {
        TenantCursors cursors = new TenantCursors();
        cursors.update(7, firstAt(1_700_000_000_640L), LATER);
        assertThat(cursors.floor(7, 1_700_000_000)).isEqualTo(1_700_000_000_640L);
        assertThat(cursors.size()).isEqualTo(1);
    }

    @Test
    void anEarlierMarkerLowersTheFloorToItsSecond() {
        TenantCursors cursors = new TenantCursors();
        cursors.update(7, firstAt(1_700_000_005_640L), LATER);
        assertThat(cursors.floor(7, 1_700_000_003)).as("a late row in an earlier second").isEqualTo(1_700_000_003_000L);
    }

    @Test
    void aLaterEarliestMarkerStartsAtItsSecond() {
        TenantCursors cursors = new TenantCursors();
        cursors.update(7, firstAt(1_700_000_005_640L), LATER);
        assertThat(cursors.floor(7, 1_700_000_009)).isEqualTo(1_700_000_009_000L);
    }

    @Test
    void aTenantVisitedSlowlyHasItsFloorLeftUnraisedEverySixteenthUpdate() {
        TenantCursors cursors = new TenantCursors();
        for (int update = 1; update <= 2 * TenantCursors.UNRAISED_EVERY; update++) {
            // A visit every 100 ms: 16 updates take longer than the second the net also waits for.
            cursors.update(7, firstAt(1_700_000_000_640L), LATER + 100L * update);
            long expected = update % TenantCursors.UNRAISED_EVERY == 0 ? 1_700_000_000_000L : 1_700_000_000_640L;
            assertThat(cursors.floor(7, 1_700_000_000)).as("after update %d", update).isEqualTo(expected);
        }
    }

    @Test
    void aTenantVisitedEveryFewMillisecondsHasItsFloorLeftUnraisedOnceASecond() {
        // One busy tenant is visited every few milliseconds; its unraised visit walks over the
        // tombstones of a whole second of claimed rows on RocksDB, so once a second is the most.
        TenantCursors cursors = new TenantCursors();
        int unraised = 0;
        for (int update = 1; update <= 1_000; update++) {
            cursors.update(7, firstAt(1_700_000_000_640L), LATER + 5L * update);
            if (cursors.floor(7, 1_700_000_000) == 1_700_000_000_000L) {
                unraised++;
                assertThat(update).as("left unraised at update %d", update).isEqualTo(1 + 200 * unraised);
            }
        }
        assertThat(unraised).as("visits over 5 s that read from the second's start").isEqualTo(4);
    }

    @Test
    void aFloorIsNotLeftUnraisedBeforeSixteenUpdatesHoweverLongTheyTake() {
        TenantCursors cursors = new TenantCursors();
        for (int update = 1; update < TenantCursors.UNRAISED_EVERY; update++) {
            cursors.update(7, firstAt(1_700_000_000_640L), LATER + 60_000L * update);
            assertThat(cursors.floor(7, 1_700_000_000)).as("after update %d", update).isEqualTo(1_700_000_000_640L);
        }
    }

    @Test
    void aDrainedTenantIsEvicted() {
        TenantCursors cursors = new TenantCursors();
        cursors.update(7, firstAt(1_700_000_000_640L), LATER);
        cursors.update(7, Optional.empty(), LATER);
        assertThat(cursors.size()).isZero();
        assertThat(cursors.floor(7, 1_700_000_000)).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void aFirstRowDueLaterRaisesTheFloorToTheCleanupTimeOnly() {
        TenantCursors cursors = new TenantCursors();
        cursors.update(7, firstAt(1_700_000_000_640L), 1_700_000_000_200L);
        assertThat(cursors.floor(7, 1_700_000_000)).as("a hook ingested at 200 ms comes before a retry due at 640 ms")
                .isEqualTo(1_700_000_000_200L);
    }
}
