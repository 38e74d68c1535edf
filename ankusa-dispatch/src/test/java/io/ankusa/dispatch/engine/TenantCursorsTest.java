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
    void a_tenant_without_a_floor_starts_at_its_earliest_scanned_marker() {
        assertThat(new TenantCursors().floor(7, 1_700_000_000)).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void the_floor_skips_the_claimed_rows_of_the_earliest_marker_second() {
        TenantCursors cursors = new TenantCursors();
        cursors.update(7, firstAt(1_700_000_000_640L), LATER);
        assertThat(cursors.floor(7, 1_700_000_000)).isEqualTo(1_700_000_000_640L);
        assertThat(cursors.size()).isEqualTo(1);
    }

    @Test
    void an_earlier_marker_lowers_the_floor_to_its_second() {
        TenantCursors cursors = new TenantCursors();
        cursors.update(7, firstAt(1_700_000_005_640L), LATER);
        assertThat(cursors.floor(7, 1_700_000_003)).as("a late row in an earlier second").isEqualTo(1_700_000_003_000L);
    }

    @Test
    void a_later_earliest_marker_starts_at_its_second() {
        TenantCursors cursors = new TenantCursors();
        cursors.update(7, firstAt(1_700_000_005_640L), LATER);
        assertThat(cursors.floor(7, 1_700_000_009)).isEqualTo(1_700_000_009_000L);
    }

    @Test
    void a_tenant_visited_slowly_has_its_floor_left_unraised_every_sixteenth_update() {
        TenantCursors cursors = new TenantCursors();
        for (int update = 1; update <= 2 * TenantCursors.UNRAISED_EVERY; update++) {
            // A visit every 100 ms: 16 updates take longer than the second the net also waits for.
            cursors.update(7, firstAt(1_700_000_000_640L), LATER + 100L * update);
            long expected = update % TenantCursors.UNRAISED_EVERY == 0 ? 1_700_000_000_000L : 1_700_000_000_640L;
            assertThat(cursors.floor(7, 1_700_000_000)).as("after update %d", update).isEqualTo(expected);
        }
    }

    @Test
    void a_tenant_visited_every_few_milliseconds_has_its_floor_left_unraised_once_a_second() {
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
    void a_floor_is_not_left_unraised_before_sixteen_updates_however_long_they_take() {
        TenantCursors cursors = new TenantCursors();
        for (int update = 1; update < TenantCursors.UNRAISED_EVERY; update++) {
            cursors.update(7, firstAt(1_700_000_000_640L), LATER + 60_000L * update);
            assertThat(cursors.floor(7, 1_700_000_000)).as("after update %d", update).isEqualTo(1_700_000_000_640L);
        }
    }

    @Test
    void a_drained_tenant_is_evicted() {
        TenantCursors cursors = new TenantCursors();
        cursors.update(7, firstAt(1_700_000_000_640L), LATER);
        cursors.update(7, Optional.empty(), LATER);
        assertThat(cursors.size()).isZero();
        assertThat(cursors.floor(7, 1_700_000_000)).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void a_first_row_due_later_raises_the_floor_to_the_cleanup_time_only() {
        TenantCursors cursors = new TenantCursors();
        cursors.update(7, firstAt(1_700_000_000_640L), 1_700_000_000_200L);
        assertThat(cursors.floor(7, 1_700_000_000)).as("a hook ingested at 200 ms comes before a retry due at 640 ms")
                .isEqualTo(1_700_000_000_200L);
    }
}
