package io.ankusa.dispatch.engine;

import io.ankusa.queue.ledger.DueRow;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Per-tenant scan floors ({@code ord → floor_at}) for the due scan: in memory, for tenants with due
 * rows only (evicted when a tenant drains), never persisted. A floor lets the due scan start past
 * the rows the pipeline already claimed.
 *
 * <p>The floor of a tenant is the start of the earliest marker second the tick scanned for it —
 * every due row has a marker of its own second, so no due row of the tenant lies before — raised
 * to the due time of its earliest row as the last cleanup read it (from the start of the tenant's
 * range) when that row is in the same second, but never past that cleanup's horizon (the earlier
 * of its now and the oldest stamp a writer of due rows held, {@code DueStamps}). The raise skips
 * the rows of that second the pipeline already claimed, and hides no row committed later: such a
 * row is due at or after the horizon (a writer holds its stamp until its commit returns and
 * stamps its rows at or after it), so at or after the floor. Only a row stamped without a held
 * stamp could fall below the floor; as a net for such a writer, the floor is left unraised for
 * one visit once it was raised for {@value #UNRAISED_EVERY} updates and
 * {@value #UNRAISED_MILLIS} ms (by the cleanups' horizons) since it was last left unraised, and
 * that visit's read starts at the second's start. (The marker cleanup takes its first step from
 * the scheduler's read, which starts at the floor; it deletes the marker of that second only when
 * it finds no row from the floor on in it, and its check then finds such a row and puts the marker
 * back.) Both bounds, not the count alone: on RocksDB the unraised read walks over the tombstones
 * of every row of that second the pipeline claimed, and a tenant visited every few milliseconds
 * (one busy tenant) made that walk a dozen times a second — a quarter of the tick thread's CPU.
 * A tenant visited rarely is still left unraised every
 * {@value #UNRAISED_EVERY}th update.
 * A tenant without a floor (first visit, after a restart, after it drained) starts at its earliest
 * scanned marker. Only the tick thread uses this class.
 */
final class TenantCursors {

    /** A floor is left unraised for one visit once it was raised for at least this many updates… */
    static final int UNRAISED_EVERY = 16;

    /** …and at least this many milliseconds of cleanup horizons passed since it was last left unraised. */
    static final long UNRAISED_MILLIS = 1_000;

    /** A tenant's floor: the due time it was raised to, and when it is next left unraised. */
    private static final class Floor {
        long at;
        /** Updates since the floor was last left unraised (or set up). */
        long updates;
        /** The horizon of the update that last left it unraised (or set it up). */
        long unraisedAt;
        /** The next visit reads from the second's start. */
        boolean unraised;
    }

    private final Map<Long, Floor> floors = new HashMap<>();

    /** The floor for tenant {@code ord}'s due scan, given the earliest marker bucket the tick scanned for it. */
    long floor(long ord, long earliestScannedBucket) {
        Floor first = floors.get(ord);
        if (first != null && !first.unraised && MarkerCleanup.bucketOf(first.at) == earliestScannedBucket) {
            return first.at;
        }
        return earliestScannedBucket * 1000;
    }

    /**
     * After a cleanup of horizon {@code horizon}: the tenant's earliest due row, or none (the
     * tenant drained: evict). A first row due later than {@code horizon} (a retry's backoff) raises
     * the floor to {@code horizon} only: a row committed after the cleanup is due at or after the
     * horizon and may come before that row.
     */
    void update(long ord, Optional<DueRow> first, long horizon) {
        if (first.isEmpty()) {
            floors.remove(ord);
        } else {
            Floor floor = floors.get(ord);
            if (floor == null) {
                floor = new Floor();
                floor.unraisedAt = horizon;
                floors.put(ord, floor);
            }
            floor.at = Math.min(first.get().at(), horizon);
            floor.updates++;
            floor.unraised = floor.updates >= UNRAISED_EVERY && horizon - floor.unraisedAt >= UNRAISED_MILLIS;
            if (floor.unraised) {
                floor.updates = 0;
                floor.unraisedAt = horizon;
            }
        }
    }

    /** Tenants with a floor. */
    int size() {
        return floors.size();
    }
}
