package io.ankusa.dispatch;

import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.TenantDirectory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * A pipeline's top tenants by pending, kept incrementally from what its scheduler already knows
 * instead of reading the active index from its oldest second at every measurement.
 *
 * <p>The scheduler tells it which tenants it knows (a tenant with a pending row has a marker at or
 * before now, so the feed brings it to the scheduler) and which it left with work: a tenant cut
 * short by its turn or the tick, or held back at its in-flight limit or rate — the tenants whose
 * backlog grows. A measurement reads the pending counters (one multi-read) of at most
 * {@value #REFRESH} tenants: those left with work since the last measurement first, then the next
 * known tenants of a round-robin sweep; it keeps the last count of every known tenant, so the top
 * list comes from memory (a bounded selection), and the names of the reported tenants are read
 * once and kept. A tenant's count is at most one sweep old ({@code known tenants / }{@value #REFRESH}
 * measurements) unless it was left with work, when it is refreshed at the next measurement.
 *
 * <p>The scheduler calls {@link #known}, {@link #forgotten} and {@link #backlogged} on the tick
 * thread; {@link #top} runs on the gauge thread (or a caller's), one at a time.
 */
final class PendingLeaders {

    /** Pending counters read by one measurement. */
    static final int REFRESH = 512;

    private final DeliveryLedger ledger;
    private final TenantDirectory directory;
    private final ConcurrentSkipListSet<Long> known = new ConcurrentSkipListSet<>();
    private final Set<Long> backlogged = ConcurrentHashMap.newKeySet();
    private final Set<Long> dropped = ConcurrentHashMap.newKeySet();
    /** Last pending count read per tenant (positive counts only); measurement thread only. */
    private final Map<Long, Long> counts = new HashMap<>();
    private final Map<Long, String> names = new HashMap<>();
    private long sweep;

    PendingLeaders(DeliveryLedger ledger, TenantDirectory directory) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** The scheduler knows tenant {@code ord} (it has, or had, due work). */
    void known(long ord) {
        known.add(ord);
    }

    /** The scheduler forgot tenant {@code ord} (nothing due, nothing in flight). */
    void forgotten(long ord) {
        known.remove(ord);
        dropped.add(ord);
    }

    /** The scheduler left tenant {@code ord} with due work in a tick. */
    void backlogged(long ord) {
        backlogged.add(ord);
    }

    /** Whether the scheduler knows no tenant (it has not ticked yet, or nothing is due). */
    boolean knowsNone() {
        return known.isEmpty();
    }

    /** Up to {@code n} tenants with the most pending rows, most first. */
    synchronized List<TenantPending> top(int n) {
        LinkedHashSet<Long> refresh = new LinkedHashSet<>();
        for (Iterator<Long> it = backlogged.iterator(); it.hasNext() && refresh.size() < REFRESH;) {
            refresh.add(it.next());
            it.remove();
        }
        for (Iterator<Long> it = dropped.iterator(); it.hasNext();) {
            Long ord = it.next();
            it.remove();
            if (!known.contains(ord)) {
                counts.remove(ord);
                names.remove(ord);
            }
        }
        int size = known.size();
        int swept = 0;
        while (refresh.size() < REFRESH && swept < size) {
            Long next = known.higher(sweep);
            if (next == null) {
                next = known.ceiling(0L);
                if (next == null) {
                    break;
                }
            }
            sweep = next;
            refresh.add(next);
            swept++;
        }
        List<Long> ords = List.copyOf(refresh);
        long[] pending = ords.isEmpty() ? new long[0] : ledger.pending(ords);
        for (int i = 0; i < ords.size(); i++) {
            if (pending[i] > 0) {
                counts.put(ords.get(i), pending[i]);
            } else {
                counts.remove(ords.get(i));
            }
        }
        PriorityQueue<Map.Entry<Long, Long>> leaders = new PriorityQueue<>(n + 1, Map.Entry.comparingByValue());
        for (Map.Entry<Long, Long> e : counts.entrySet()) {
            if (leaders.size() < n) {
                leaders.add(e);
            } else if (e.getValue() > leaders.peek().getValue()) {
                leaders.poll();
                leaders.add(e);
            }
        }
        List<Map.Entry<Long, Long>> ranked = new ArrayList<>(leaders);
        ranked.sort(Map.Entry.<Long, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()));
        List<TenantPending> top = new ArrayList<>(ranked.size());
        for (Map.Entry<Long, Long> e : ranked) {
            String name = names.get(e.getKey());
            if (name == null) {
                name = directory.name(e.getKey()).orElse(null);
                if (name == null) {
                    continue;
                }
                names.put(e.getKey(), name);
            }
            top.add(new TenantPending(name, e.getValue()));
        }
        return top;
    }
}
