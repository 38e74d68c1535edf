package io.ankusa.dispatch.engine;

import io.ankusa.dispatch.report.TenantPending;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.TenantDirectory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * A pipeline's top tenants by pending, kept incrementally from what its scheduler already knows
 * instead of reading the active index from its oldest second at every measurement.
 *
 * <p>The scheduler tells it which tenants it knows (a tenant with a pending row has a marker at or
 * before now, so the feed brings it to the scheduler) and which tenants' pending counts it saw
 * change: a tenant it learns of, one the feed offers a marker second it did not know (rows
 * ingested, revived or recovered) and one it claimed rows of. A tenant held back at its in-flight
 * limit or rate is not read again while it waits: nothing the scheduler does changes its count,
 * and rows ingested for it bring a new marker second. A measurement reads the
 * pending counters (one multi-read) of the tenants changed since the last measurement (at most
 * {@value #REFRESH}; the rest at the next one) and, at most once every {@value #SWEEP_STEP_MILLIS} ms
 * of the queue clock (the default gauge interval: a caller measuring more often pays for the
 * changed tenants only), of the next {@value #SWEEP} known tenants of a round-robin sweep, for
 * what the scheduler does not see (a purge); a sweep starts at most once every
 * {@value #SWEEP_PERIOD_MILLIS} ms, so a few known tenants are not read again at every
 * measurement (on RocksDB the pending counter of a tenant with a long backlog costs tens of
 * microseconds a read: its merge operands). It keeps the last count of
 * every known tenant in an order by count, so the top list is the first entries of that order, and
 * the names of the reported tenants are read once and kept. So a measurement's cost follows the
 * tenants whose work changed since the last one, not the number of tenants known or the backlog's
 * length. A count is as fresh as the last measurement for a changed tenant, except rows ingested
 * into a marker second the scheduler already knew (they are seen once the next second's marker
 * comes); any other count is at most one sweep old ({@code known tenants / }{@value #SWEEP}
 * steps of at least {@value #SWEEP_STEP_MILLIS} ms, and at least a sweep period).
 *
 * <p>The scheduler calls {@link #known}, {@link #forgotten} and {@link #changed} on the tick thread; {@link #top} runs
 * on the gauge thread (or a caller's), one at a time.
 */
final class PendingLeaders {

    /** Most changed tenants' pending counters read by one measurement. */
    static final int REFRESH = 512;
    /** Known tenants' pending counters read by one measurement's sweep, besides the changed ones. */
    static final int SWEEP = 16;
    /** Shortest time between the starts of two sweeps over the known tenants (queue-clock millis). */
    static final long SWEEP_PERIOD_MILLIS = 60_000;
    /**
     * Shortest time between two sweep reads (queue-clock millis): the default gauge interval, so a
     * caller measuring more often than that pays for the changed tenants only.
     */
    static final long SWEEP_STEP_MILLIS = 15_000;

    /** A tenant's last pending count, ordered most first (then by ordinal). */
    private record Count(long ord, long pending) implements Comparable<Count> {

        @Override
        public int compareTo(Count other) {
            int byPending = Long.compare(other.pending, pending);
            return byPending != 0 ? byPending : Long.compare(ord, other.ord);
        }
    }

    private final DeliveryLedger ledger;
    private final TenantDirectory directory;
    private final ConcurrentSkipListSet<Long> known = new ConcurrentSkipListSet<>();
    private final Set<Long> changed = ConcurrentHashMap.newKeySet();
    private final Set<Long> dropped = ConcurrentHashMap.newKeySet();
    /** Last pending count read per tenant (positive counts only); measurement thread only. */
    private final Map<Long, Count> counts = new HashMap<>();
    /** The same counts, most first; measurement thread only. */
    private final TreeSet<Count> ranked = new TreeSet<>();
    private final Map<Long, String> names = new HashMap<>();
    private long sweep;
    /** When the current sweep over the known tenants started (queue-clock millis). */
    private long sweepStartedAt = Long.MIN_VALUE / 2;
    /** When the sweep last read counters (queue-clock millis). */
    private long sweptAt = Long.MIN_VALUE / 2;

    PendingLeaders(DeliveryLedger ledger, TenantDirectory directory) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** The scheduler knows tenant {@code ord} (it has, or had, due work): its count is read at the next measurement. */
    void known(long ord) {
        known.add(ord);
        changed.add(ord);
    }

    /** The scheduler forgot tenant {@code ord} (nothing due, nothing in flight). */
    void forgotten(long ord) {
        known.remove(ord);
        dropped.add(ord);
    }

    /** The scheduler saw tenant {@code ord}'s pending count change (a new marker second, a claim). */
    void changed(long ord) {
        changed.add(ord);
    }

    /** Whether the scheduler knows no tenant (it has not ticked yet, or nothing is due). */
    boolean knowsNone() {
        return known.isEmpty();
    }

    /** Up to {@code n} tenants with the most pending rows, most first, measured at {@code now} (queue-clock millis). */
    synchronized List<TenantPending> top(int n, long now) {
        LinkedHashSet<Long> refresh = new LinkedHashSet<>();
        for (Iterator<Long> it = changed.iterator(); it.hasNext() && refresh.size() < REFRESH;) {
            refresh.add(it.next());
            it.remove();
        }
        for (Iterator<Long> it = dropped.iterator(); it.hasNext();) {
            Long ord = it.next();
            it.remove();
            if (!known.contains(ord)) {
                Count last = counts.remove(ord);
                if (last != null) {
                    ranked.remove(last);
                }
                names.remove(ord);
            }
        }
        int swept = 0;
        int size = known.size();
        int sweepUntil = now - sweptAt < SWEEP_STEP_MILLIS ? 0 : refresh.size() + SWEEP;
        while (refresh.size() < sweepUntil && swept < size) {
            Long next = known.higher(sweep);
            if (next == null) {
                if (now - sweepStartedAt < SWEEP_PERIOD_MILLIS) {
                    // The last sweep is complete and began less than a period ago: the next waits.
                    break;
                }
                sweepStartedAt = now;
                next = known.ceiling(0L);
                if (next == null) {
                    break;
                }
            }
            sweep = next;
            refresh.add(next);
            swept++;
            sweptAt = now;
        }
        List<Long> ords = List.copyOf(refresh);
        long[] pending = ords.isEmpty() ? new long[0] : ledger.pending(ords);
        for (int i = 0; i < ords.size(); i++) {
            Long ord = ords.get(i);
            Count last = pending[i] > 0 ? counts.put(ord, new Count(ord, pending[i])) : counts.remove(ord);
            if (last != null) {
                ranked.remove(last);
            }
            if (pending[i] > 0) {
                ranked.add(counts.get(ord));
            }
        }
        List<TenantPending> top = new ArrayList<>(Math.min(n, ranked.size()));
        for (Iterator<Count> it = ranked.iterator(); it.hasNext() && top.size() < n;) {
            Count c = it.next();
            String name = names.get(c.ord());
            if (name == null) {
                name = directory.name(c.ord()).orElse(null);
                if (name == null) {
                    continue;
                }
                names.put(c.ord(), name);
            }
            top.add(new TenantPending(name, c.pending()));
        }
        return top;
    }
}
