package io.ankusa.dispatch;

import io.ankusa.dispatch.pipeline.MarkerCleanup;
import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.InflightRow;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One dispatch tick: which tenants have work, what to claim from each, the claim, the marker
 * cleanup, and the hand-over of the claimed deliveries to their sinks.
 *
 * <ol>
 *   <li>{@code activeTenants(now, 4096)}: the first active markers up to the current second, oldest
 *       second first. Tenants with nothing due have no marker there, so the tick never touches
 *       them: its cost follows the tenants with work, not the tenants or the backlog.</li>
 *   <li>For each distinct tenant in marker order, until the tick's row limit (never more than the
 *       free sink slots) or byte budget is spent: {@code dueForTenant} from the tenant's scan
 *       floor up to now, in due-time order. The tenants visited are what
 *       {@code dispatchActiveTenants} reports.</li>
 *   <li>One claim of every tenant's rows (one synced batch, under the tenants' stripes).</li>
 *   <li>Marker cleanup for every visited tenant (after the claim; the stale markers of all of them
 *       deleted in one unsynced batch), which also gives each tenant's next scan floor, or evicts
 *       it when it drained.</li>
 *   <li>The claimed deliveries go to the sink; rows whose hook is gone or undecodable are dropped
 *       through the same counted settle path.</li>
 * </ol>
 *
 * <p>Claim order is therefore "oldest second first" across tenants, and due-time order within a
 * tenant: not strict global oldest-first, and no fairness between tenants. Ticks are serialized.
 */
final class Tick {

    /** Active markers read per tick (TEN-1 §5). */
    static final int ACTIVE_MARKERS = 4096;

    private final DeliveryLedger ledger;
    private final InstantSource clock;
    private final MarkerCleanup cleanup;
    private final TenantCursors cursors = new TenantCursors();
    private final Attempts attempts;
    private final Settler settler;
    private final int rowLimit;
    private final long byteBudget;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile int lastVisited;

    /** What one run claimed, for the loop's pacing; {@code settled} completes with the report. */
    record Run(int rowBudget, int claimed, CompletionStage<TickReport> settled) {
    }

    Tick(DeliveryLedger ledger, InstantSource clock, MarkerCleanup cleanup, Attempts attempts, Settler settler,
            int rowLimit, long byteBudget) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.cleanup = Objects.requireNonNull(cleanup, "cleanup");
        this.attempts = Objects.requireNonNull(attempts, "attempts");
        this.settler = Objects.requireNonNull(settler, "settler");
        this.rowLimit = rowLimit;
        this.byteBudget = byteBudget;
    }

    /** Distinct tenants the last tick visited. */
    int lastVisited() {
        return lastVisited;
    }

    /** Runs one tick now, on the calling thread, up to the hand-over to the sinks. */
    Run run() {
        lock.lock();
        try {
            return runLocked();
        } finally {
            lock.unlock();
        }
    }

    private Run runLocked() {
        long now = clock.millis();
        Instant startedAt = Instant.ofEpochMilli(now);
        int rowBudget = Math.min(rowLimit, attempts.freeSlots());
        if (rowBudget == 0) {
            // Every slot is busy: nothing visited, and the last real tick's count stands.
            return new Run(0, 0, CompletableFuture.completedFuture(new TickReport(startedAt, 0, 0, 0, 0, 0, 0)));
        }
        Map<Long, List<Long>> bucketsByTenant = new LinkedHashMap<>();
        for (ActiveTenant marker : ledger.activeTenants(now, ACTIVE_MARKERS)) {
            bucketsByTenant.computeIfAbsent(marker.ord(), ord -> new ArrayList<>()).add(marker.bucket());
        }
        int rowsLeft = rowBudget;
        long bytesLeft = byteBudget;
        List<Long> visited = new ArrayList<>();
        Map<Long, List<DueRow>> toClaim = new LinkedHashMap<>();
        for (Map.Entry<Long, List<Long>> tenant : bucketsByTenant.entrySet()) {
            if (rowsLeft <= 0 || bytesLeft <= 0) {
                break;
            }
            long ord = tenant.getKey();
            visited.add(ord);
            long floor = cursors.floor(ord, tenant.getValue().get(0));
            List<DueRow> rows = ledger.dueForTenant(ord, now, floor, rowsLeft, bytesLeft);
            if (!rows.isEmpty()) {
                toClaim.put(ord, rows);
                rowsLeft -= rows.size();
                bytesLeft -= rows.stream().mapToLong(DueRow::size).sum();
            }
        }
        Claim claim = toClaim.isEmpty() ? Claim.empty() : ledger.claimAll(toClaim);
        List<CompletableFuture<Settled>> settles = new ArrayList<>(attempts.start(claim.claimed()));
        for (InflightRow orphan : claim.orphans()) {
            settles.add(settler.drop(orphan));
        }
        Map<Long, List<Long>> visitedBuckets = new LinkedHashMap<>();
        visited.forEach(ord -> visitedBuckets.put(ord, bucketsByTenant.get(ord)));
        cleanup.clean(visitedBuckets, now).forEach(cursors::update);
        lastVisited = visited.size();
        int tenantsVisited = visited.size();
        int claimed = claim.claimed().size();
        CompletionStage<TickReport> report = CompletableFuture.allOf(settles.toArray(CompletableFuture<?>[]::new))
                .thenApply(ignored -> {
                    Map<Settled, Integer> counts = new EnumMap<>(Settled.class);
                    settles.forEach(s -> counts.merge(s.join(), 1, Integer::sum));
                    return new TickReport(startedAt, tenantsVisited, claimed,
                            counts.getOrDefault(Settled.DELIVERED, 0), counts.getOrDefault(Settled.RETRIED, 0),
                            counts.getOrDefault(Settled.DEAD, 0), counts.getOrDefault(Settled.DROPPED, 0));
                });
        return new Run(rowBudget, claimed + claim.orphans().size(), report);
    }
}
