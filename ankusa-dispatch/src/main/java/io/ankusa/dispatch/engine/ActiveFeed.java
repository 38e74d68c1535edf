package io.ankusa.dispatch.engine;

import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.DeliveryLedger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Feeds the scheduler's ready set from the active index with a cursor that moves forward, one
 * bounded page a tick, instead of rescanning from the oldest second every tick.
 *
 * <p>It starts at the oldest marker (after a restart the store is the truth: the first pass reads
 * every marker, a page a tick). Once a page comes back short, the cursor has reached the present;
 * the next pass starts again at the second of the {@code DueStamps} horizon read before the first
 * page of the pass just ended. A writer stamps a row with
 * the time it read its clock and commits later, so a marker can appear behind the cursor; but a
 * row committed after a horizon was read is due at or after it ({@code DueStamps}), so every
 * marker a pass did not see — committed after the page that covered its second was read, so after
 * the pass's first read — lies at or after that horizon's second, where the next pass starts
 * (and, by the same argument one pass back, every marker behind the pass's own start was seen by
 * the pass before). Starting there, not a fixed number of seconds behind, keeps a drained
 * backlog's markers (gone, but tombstones on RocksDB) and the markers of tenants the scheduler
 * knows already out of every tick's page: with 10⁴ tenants a rewind of five seconds re-read and
 * re-offered up to a full page every tick, a third of the tick's time. Every
 * {@value #FULL_PASS_EVERY} catch-ups the cursor goes back to the oldest marker instead: a full
 * pass, still a page a tick, a net for a marker written without a stamp, found later but never
 * lost. The page limit makes the feed's cost per tick flat: it does not grow with the backlog's
 * length or the number of tenants; the page follows the tick's row budget ({@link #pageFor}).
 *
 * <p>Tick thread only.
 */
final class ActiveFeed {

    /** Most markers read per tick. */
    static final int PAGE = 4096;
    /** Fewest markers read per tick (a tick with room for few rows). */
    static final int MIN_PAGE = 256;
    /** Markers read per row the tick may claim. */
    static final int MARKERS_PER_ROW = 4;
    /** Catch-ups between two full passes. */
    static final int FULL_PASS_EVERY = 64;

    private final DeliveryLedger ledger;
    private long bucket;
    private long ord;
    private int catchUps;
    private boolean caughtUp;
    /** The horizon read before the first page of the pass in progress; none before the first page. */
    private long passHorizon = Long.MIN_VALUE;

    ActiveFeed(DeliveryLedger ledger) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
    }

    /** Whether a page has come back short once: every marker up to that page's time has been offered. */
    boolean caughtUp() {
        return caughtUp;
    }

    /**
     * Markers to read in a tick that may claim {@code rowBudget} rows: {@value #MARKERS_PER_ROW} per
     * row, from {@value #MIN_PAGE} to {@value #PAGE}. A tick visits at most one tenant per row it
     * claims, and a tenant that still has due rows after its visit goes back to the ring through
     * the marker cleanup, not the feed; so a page a few times the row budget keeps the ring ahead
     * of the ticks, while reading (and offering to the scheduler) a full page of markers it mostly
     * knows already every tick was a third of the tick's time with 10⁴ tenants.
     */
    static int pageFor(int rowBudget) {
        return (int) Math.max(MIN_PAGE, Math.min(PAGE, (long) rowBudget * MARKERS_PER_ROW));
    }

    /**
     * The next page of at most {@code limit} markers up to {@code now}, by tenant (ascending
     * buckets), advancing the cursor.
     *
     * @param now     the tick's time (epoch milliseconds)
     * @param horizon the {@code DueStamps} horizon read before this page (epoch milliseconds, at most now)
     * @param limit   most markers to read
     */
    Map<Long, List<Long>> next(long now, long horizon, int limit) {
        if (passHorizon == Long.MIN_VALUE) {
            passHorizon = horizon;
        }
        List<ActiveTenant> page = ledger.activeTenantsAfter(bucket, ord, now, limit);
        Map<Long, List<Long>> byTenant = new LinkedHashMap<>();
        for (ActiveTenant marker : page) {
            byTenant.computeIfAbsent(marker.ord(), o -> new ArrayList<>()).add(marker.bucket());
        }
        if (page.size() == limit) {
            ActiveTenant last = page.get(page.size() - 1);
            bucket = last.bucket();
            ord = last.ord();
        } else {
            catchUps++;
            caughtUp = true;
            // The pass read every marker up to now from its start; one committed since is due at or after its horizon.
            bucket = catchUps % FULL_PASS_EVERY == 0 ? 0
                    : Math.max(0, Math.floorDiv(Math.min(passHorizon, now), 1000));
            ord = 0;
            // The next page starts the next pass: its horizon is read before it.
            passHorizon = Long.MIN_VALUE;
        }
        return byTenant;
    }
}
