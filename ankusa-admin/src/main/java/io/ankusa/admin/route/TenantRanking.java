package io.ankusa.admin.route;

import io.ankusa.api.TenantCursor;
import io.ankusa.api.TenantPage;
import io.ankusa.api.TenantQuery;
import io.ankusa.api.TenantStats;
import io.ankusa.api.TenantSummary;
import io.ankusa.queue.Queue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tenants with the most of one counter (pending, dead, ...), for the sorted tenant listing, kept
 * by a slow walk of the tenant index: no page of the API ever scans the index, and no index of the
 * store is kept for it.
 *
 * <p>The walk reads one page of {@value #PAGE} tenants (one range scan, counters included) at a time,
 * {@link #PAGE_PAUSE} apart, and keeps the {@value #KEEP} highest of each {@link Key}; at the end of a
 * pass that ranking replaces the published one and the next pass starts {@link #PASS_PAUSE} later. At
 * 10<sup>5</sup> tenants a pass is 100 range scans over 10 s; at most ten range scans a second.
 * The walk starts with the first sorted request, on a daemon thread of its own, and its first pass
 * runs without pauses so that a ranking exists at once. The ranking is as of its pass: a tenant's
 * counters may have moved since, which the route shows by reading the listed tenants' counters again.
 */
final class TenantRanking implements AutoCloseable {

    /** Tenants per step of the walk: the largest page {@link Queue#tenants} serves. */
    static final int PAGE = TenantQuery.MAX_LIMIT;

    /** How many tenants each ranking keeps: the most a sorted page may ask for. */
    static final int KEEP = 1_000;

    static final Duration PAGE_PAUSE = Duration.ofMillis(100);
    static final Duration PASS_PAUSE = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(TenantRanking.class);

    /** What the tenants can be ranked by: a counter of {@link TenantStats}. */
    enum Key {
        PENDING(TenantStats::pending),
        SCHEDULED(TenantStats::scheduled),
        INFLIGHT(TenantStats::inflight),
        DEAD(TenantStats::dead),
        QUARANTINED(TenantStats::quarantined),
        BYTES(TenantStats::bytes);

        private final ToLongFunction<TenantStats> counter;

        Key(ToLongFunction<TenantStats> counter) {
            this.counter = counter;
        }

        long of(TenantStats stats) {
            return counter.applyAsLong(stats);
        }

        /** Highest first; among equals by tenant id, so that a ranking is deterministic. */
        Comparator<TenantSummary> order() {
            return Comparator.comparingLong((TenantSummary t) -> of(t.stats())).reversed()
                    .thenComparing(TenantSummary::tenantId);
        }
    }

    /**
     * A finished pass.
     *
     * @param asOf    when the pass ended
     * @param tenants how many tenants it read
     * @param ranked  per key, the {@value #KEEP} highest, highest first
     */
    record Ranking(Instant asOf, long tenants, Map<Key, List<TenantSummary>> ranked) {
    }

    private final Queue queue;
    private final Clock clock;
    private final Object lock = new Object();
    private final Map<Key, PriorityQueue<TenantSummary>> pass = new EnumMap<>(Key.class);
    private Optional<TenantCursor> cursor = Optional.empty();
    private long passTenants;
    private Ranking published;
    private RuntimeException firstPassFailure;
    private Thread walker;
    private boolean closed;

    TenantRanking(Queue queue, Clock clock) {
        this.queue = queue;
        this.clock = clock;
        startPass();
    }

    /**
     * The latest finished ranking, starting the walk on the first call and waiting for its first pass.
     *
     * @return the ranking
     * @throws InterruptedException when interrupted while the first pass runs
     * @throws RuntimeException      what the first pass failed with (the next call starts it again)
     */
    Ranking ranking() throws InterruptedException {
        synchronized (lock) {
            if (walker == null && !closed) {
                firstPassFailure = null;
                walker = new Thread(this::walk, "ankusa-admin-tenant-ranking");
                walker.setDaemon(true);
                walker.start();
            }
            while (published == null && firstPassFailure == null && !closed) {
                lock.wait();
            }
            if (published == null) {
                throw firstPassFailure != null ? firstPassFailure
                        : new IllegalStateException("the admin API is closed");
            }
            return published;
        }
    }

    /**
     * Reads one page of the walk; at the end of the index publishes the pass and starts the next.
     *
     * @return whether this step ended a pass
     */
    boolean step() {
        TenantQuery query = TenantQuery.all().limit(PAGE);
        Optional<TenantCursor> from;
        synchronized (lock) {
            from = cursor;
        }
        if (from.isPresent()) {
            query = query.after(from.get());
        }
        TenantPage page = queue.tenants(query);
        synchronized (lock) {
            for (TenantSummary tenant : page.tenants()) {
                passTenants++;
                pass.forEach((key, top) -> offer(key, top, tenant));
            }
            cursor = page.next();
            if (cursor.isPresent()) {
                return false;
            }
            Map<Key, List<TenantSummary>> ranked = new EnumMap<>(Key.class);
            pass.forEach((key, top) -> {
                List<TenantSummary> list = new ArrayList<>(top);
                list.sort(key.order());
                ranked.put(key, List.copyOf(list));
            });
            published = new Ranking(clock.instant(), passTenants, ranked);
            lock.notifyAll();
            startPass();
            return true;
        }
    }

    private static void offer(Key key, PriorityQueue<TenantSummary> top, TenantSummary tenant) {
        top.add(tenant);
        if (top.size() > KEEP) {
            top.poll();
        }
    }

    private void startPass() {
        for (Key key : Key.values()) {
            // The head is the lowest kept: the one a higher tenant pushes out.
            pass.put(key, new PriorityQueue<>(key.order().reversed()));
        }
        cursor = Optional.empty();
        passTenants = 0;
    }

    private void walk() {
        boolean first = true;
        try {
            while (!isClosed()) {
                boolean ended;
                try {
                    ended = step();
                } catch (RuntimeException e) {
                    LOG.warn("the tenant ranking's walk failed; it starts again after a pause", e);
                    synchronized (lock) {
                        if (published == null) {
                            firstPassFailure = e;
                            walker = null;
                            startPass();
                            lock.notifyAll();
                            return;
                        }
                        startPass();
                    }
                    ended = true;
                }
                first &= !ended;
                if (ended) {
                    Thread.sleep(PASS_PAUSE.toMillis());
                } else if (!first) {
                    Thread.sleep(PAGE_PAUSE.toMillis());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    @Override
    public void close() {
        Thread stopping;
        synchronized (lock) {
            closed = true;
            stopping = walker;
            lock.notifyAll();
        }
        if (stopping != null) {
            stopping.interrupt();
        }
    }
}
