package io.ankusa.dispatch.engine;

import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.report.Gauges;
import io.ankusa.dispatch.report.TenantPending;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.QueueClock;
import io.ankusa.queue.ledger.TenantDirectory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntSupplier;
import java.util.function.LongFunction;

/**
 * Measures {@link Gauges} without folding a family (TEN-1 §4, §5): the aggregate counters (one
 * multi-get of ordinal 0), the oldest due time, the tenant count (one meta read), and the top
 * tenants by pending.
 *
 * <p>Oldest due time of a pipeline: from its {@link OldestDue} (kept from its scheduler's marker
 * cleanups; no store read while the earliest tenants' heads are known). Of a {@link io.ankusa.dispatch.QueueMonitor},
 * or of a pipeline before its feed reached the present: the first active marker verified against
 * its tenant's first due row (at most 32 stale markers skipped).
 *
 * <p>Top tenants of a pipeline: from its {@link PendingLeaders} (kept from what its scheduler
 * knows; at most {@value PendingLeaders#REFRESH} counters read per measurement), or, while the
 * scheduler knows no tenant yet (before the pipeline's first tick), as a monitor's. Top tenants of a
 * {@link io.ankusa.dispatch.QueueMonitor}, which has no scheduler: a tenant with pending rows has a marker at or before
 * the current second (a first-attempt row is due when it is written), so the candidates are the first
 * {@value #TOP_CANDIDATES} distinct tenants of the active markers up to now — those that have
 * waited longest — read from at most {@value #TOP_MARKERS_SCANNED} markers; their pending
 * counters are one multi-read; names are read for the {@value #TOP_TENANTS} reported only.
 */
public final class GaugeReader {

    static final int TOP_TENANTS = 100;
    static final int TOP_CANDIDATES = 10_000;
    static final int TOP_MARKERS_SCANNED = 40_000;

    private final Queue queue;
    private final DeliveryLedger ledger;
    private final QueueClock clock;
    private final IntSupplier lastVisited;
    private final LongFunction<List<TenantPending>> top;
    private final OldestDue oldest;

    /**
     * A reader whose top tenants come from the active index (a {@link io.ankusa.dispatch.QueueMonitor}: no scheduler to
     * ask).
     */
    GaugeReader(Queue queue, DeliveryLedger ledger, QueueClock clock, IntSupplier lastVisited) {
        this(queue, ledger, clock, lastVisited, null, null);
    }

    /**
     * A reader whose top tenants come from {@code leaders} and whose oldest due time comes from
     * {@code oldest} (a pipeline's, kept from its scheduler).
     */
    GaugeReader(Queue queue, DeliveryLedger ledger, QueueClock clock, IntSupplier lastVisited, PendingLeaders leaders,
            OldestDue oldest) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.lastVisited = Objects.requireNonNull(lastVisited, "lastVisited");
        this.oldest = oldest;
        // A pipeline whose scheduler knows no tenant yet (before its first tick) reads the index once.
        this.top = leaders == null ? this::topTenantsByPending
                : now -> leaders.knowsNone() ? topTenantsByPending(now) : leaders.top(TOP_TENANTS, now);
    }

    /**
     * A reader for a monitor without a pipeline: no scheduler, no tick.
     *
     * @param queue the open queue
     * @return a reader whose top tenants and oldest due time come from the active index
     */
    public static GaugeReader forMonitor(Queue queue) {
        DeliveryLedger ledger = LedgerSource.of(queue).deliveryLedger();
        return new GaugeReader(queue, ledger, ledger.clock(), () -> 0);
    }

    /**
     * Measures the gauges now, on the calling thread.
     *
     * @return the gauges as of now
     */
    public Gauges measure() {
        long now = clock.millis();
        QueueStats totals = ledger.stats();
        // No due row counted: nothing to age, whatever stale markers of a drained backlog remain.
        OptionalLong oldestAt = totals.pending() + totals.scheduled() == 0 ? OptionalLong.empty()
                : oldest == null ? ledger.oldestDueAt() : oldest.oldestDueAt(ledger);
        Optional<Duration> age = oldestAt.isPresent()
                ? Optional.of(Duration.ofMillis(clock.waitedSince(oldestAt.getAsLong(), now)))
                : Optional.empty();
        return new Gauges(Instant.ofEpochMilli(now), totals.pending(), totals.scheduled(), totals.inflight(),
                totals.dead(), totals.bytes(), totals.archivePending(), age, queue.tenantCount(),
                lastVisited.getAsInt(),
                top.apply(now));
    }

    private List<TenantPending> topTenantsByPending(long now) {
        LinkedHashSet<Long> candidates = new LinkedHashSet<>();
        for (ActiveTenant marker : ledger.activeTenants(now, TOP_MARKERS_SCANNED)) {
            candidates.add(marker.ord());
            if (candidates.size() == TOP_CANDIDATES) {
                break;
            }
        }
        List<Long> ords = List.copyOf(candidates);
        long[] pending = ledger.pending(ords);
        record Candidate(long ord, long pending) {
        }
        List<Candidate> ranked = new ArrayList<>(ords.size());
        for (int i = 0; i < ords.size(); i++) {
            if (pending[i] > 0) {
                ranked.add(new Candidate(ords.get(i), pending[i]));
            }
        }
        ranked.sort(Comparator.comparingLong(Candidate::pending).reversed());
        List<TenantPending> top = new ArrayList<>(Math.min(TOP_TENANTS, ranked.size()));
        for (Candidate c : ranked) {
            if (top.size() == TOP_TENANTS) {
                break;
            }
            LedgerSource.of(queue).tenantDirectory().name(c.ord())
                    .ifPresent(name -> top.add(new TenantPending(name, c.pending())));
        }
        return top;
    }
}
