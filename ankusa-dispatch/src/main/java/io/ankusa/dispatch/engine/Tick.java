package io.ankusa.dispatch.engine;

import io.ankusa.api.events.TickFinished;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRead;
import io.ankusa.queue.ledger.DueReader;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.InflightRow;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One dispatch tick: which tenants have work, what to claim from each, the claim, the marker
 * cleanup, and the hand-over of the claimed deliveries to their sinks.
 *
 * <ol>
 *   <li>The {@link ActiveFeed}: the next page (4 per row of the tick's budget, 256 to 4096) of
 *       active markers up to the current second, from a cursor that moves forward over the active
 *       index rather than rescanning it from the oldest second, offered to the
 *       {@link TenantScheduler}, which keeps the tenants with due work in its ready ring. Tenants
 *       with nothing due have no marker, so the tick never touches them.</li>
 *   <li>The scheduler wakes the tenants whose wait is over (a settle under their in-flight limit,
 *       their next delivery token) and plans one deficit round-robin pass: per ready tenant,
 *       {@code dueForTenant} from its scan floor up to now, in due-time order, as many rows as its
 *       turn, its limits and the tick's row limit (never more than the free sink slots) and byte
 *       budget allow. The tenants visited are what {@code dispatchActiveTenants} reports. Every due read of this step
 *       and the next goes through one store reader ({@link DeliveryLedger#dueReader()}: one iterator, or one read
 *       transaction, re-positioned per tenant), closed before the claim commits.</li>
 *   <li>Marker cleanup's first step for every visited tenant: its earliest due row that this
 *       tick does not claim, and so its stale markers; taken from the scheduler's due read when
 *       that started at its earliest scanned second and went on from there without a gate skip
 *       (the read returns the row after its rows too), else one seek.</li>
 *   <li>One claim of every tenant's rows, with the deletes of every visited tenant's stale markers
 *       (one unsynced batch, under the tenants' stripes: it is made durable by the next synced
 *       commit, at the latest the settle of its rows); the scheduler counts them in flight and
 *       takes their tokens.</li>
 *   <li>Marker cleanup's check (a marker put back for a deleted second that holds a row after all),
 *       which also gives each tenant's next scan floor, or evicts it when it drained.</li>
 *   <li>The claimed deliveries go to the sink; rows whose hook is gone are dropped through the same
 *       counted settle path. Each settle gives its tenant's in-flight slot back. Rows whose hook or
 *       delivery row is stored but does not decode were moved into the quarantine by the claim
 *       (kept, counted, never sent) and are reported by the {@link QuarantineAlarm}.</li>
 * </ol>
 *
 * <p>Claim order across tenants is the scheduler's (round-robin, by weight); within a tenant it is
 * due-time order. Ticks are serialized.
 */
final class Tick {

    private final DeliveryLedger ledger;
    private final InstantSource clock;
    private final MarkerCleanup cleanup;
    private final TenantCursors cursors = new TenantCursors();
    private final TenantScheduler scheduler;
    private final ActiveFeed feed;
    private final LongSupplier nanoTime;
    private final Attempts attempts;
    private final Settler settler;
    private final QuarantineAlarm alarm;
    private final int rowLimit;
    private final long byteBudget;
    private final ReentrantLock lock = new ReentrantLock();
    private final EventHub events;
    private final EndpointGate gate;
    private final KeyOrder order;
    /** Read under the lock before every tick: a tick it refuses claims nothing. */
    private final BooleanSupplier claimGate;
    private volatile int lastVisited;
    /** When the last tick ended (the scheduler's monotonic nanos); {@link #NEVER} before the first. */
    private volatile long lastEndedNanos = NEVER;

    /** {@link #lastEndedNanos()} before the first tick. */
    static final long NEVER = Long.MIN_VALUE;

    /** What one run claimed, for the loop's pacing; {@code settled} completes with the report. */
    record Run(int rowBudget, int claimed, CompletionStage<TickReport> settled) {
    }

    Tick(DeliveryLedger ledger, InstantSource clock, LongSupplier nanoTime, MarkerCleanup cleanup,
            TenantScheduler scheduler, Attempts attempts, Settler settler, QuarantineAlarm alarm, int rowLimit,
            long byteBudget, EventHub events, EndpointGate gate, KeyOrder order, BooleanSupplier claimGate) {
        this.order = Objects.requireNonNull(order, "order");
        this.claimGate = Objects.requireNonNull(claimGate, "claimGate");
        this.events = Objects.requireNonNull(events, "events");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.feed = new ActiveFeed(ledger);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.cleanup = Objects.requireNonNull(cleanup, "cleanup");
        this.attempts = Objects.requireNonNull(attempts, "attempts");
        this.settler = Objects.requireNonNull(settler, "settler");
        this.alarm = Objects.requireNonNull(alarm, "alarm");
        this.rowLimit = rowLimit;
        this.byteBudget = byteBudget;
    }

    /** Distinct tenants the last tick visited. */
    int lastVisited() {
        return lastVisited;
    }

    /** When the last tick ended (a failed one too), on the scheduler's monotonic clock; {@link #NEVER} before. */
    long lastEndedNanos() {
        return lastEndedNanos;
    }

    /** Runs {@code read} under the tick's lock (between two ticks): a read of the scheduler's state. */
    <T> T inspect(Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    /** Runs one tick now, on the calling thread, up to the hand-over to the sinks. */
    Run run() {
        return run(rowLimit);
    }

    /**
     * {@link #run()} claiming at most {@code maxRows} rows (and never more than the row limit): the
     * tick loop claims part of the slots per tick, so that one tick's claim overlaps the previous
     * tick's settle.
     */
    Run run(int maxRows) {
        lock.lock();
        try {
            return runLocked(Math.min(rowLimit, maxRows));
        } finally {
            lock.unlock();
            lastEndedNanos = nanoTime.getAsLong();
        }
    }

    private Run runLocked(int maxRows) {
        long startNanos = System.nanoTime();
        long now = clock.millis();
        Instant startedAt = Instant.ofEpochMilli(now);
        // The gate is read under the lock, so a tick that starts after it closed claims nothing.
        int rowBudget = claimGate.getAsBoolean() ? Math.min(maxRows, attempts.freeSlots()) : 0;
        if (rowBudget == 0) {
            // Every slot is busy, or the gate is closed: nothing visited, and the last real tick's count stands.
            return new Run(0, 0, CompletableFuture.completedFuture(new TickReport(startedAt, 0, 0, 0, 0, 0, 0)));
        }
        long nowNanos = nanoTime.getAsLong();
        // Before every read of the tick: a due row committed after it is due at or after it, so the
        // cleanup deletes no marker of its second or later (DueStamps).
        long horizon = Math.min(now, ledger.dueStamps().horizon());
        // Before the scheduler reads due rows: the claim takes them as read unless one was removed since.
        long readMark = ledger.dueReadMark();
        scheduler.offer(feed.next(now, horizon, ActiveFeed.pageFor(rowBudget)));
        if (feed.caughtUp()) {
            scheduler.feedCaughtUp();
        }
        scheduler.wake(nowNanos);
        TenantScheduler.Plan plan;
        List<TenantLane> visited;
        long current = MarkerCleanup.bucketOf(now);
        Map<Long, List<Long>> visitedBuckets = new LinkedHashMap<>();
        MarkerCleanup.Cleaning cleaning;
        // Every due read before the claim through one store reader (one iterator, one read
        // transaction), opened after the mark and closed before the claim commits.
        try (DueReader due = ledger.dueReader()) {
            plan = scheduler.plan(now, nowNanos, rowBudget, byteBudget,
                    lane -> lane.markers.isEmpty() ? 0 : cursors.floor(lane.ord, lane.markers.first()), due);
            visited = plan.visited();
            visited.forEach(lane -> visitedBuckets.put(lane.ord, List.copyOf(lane.markers.headSet(current, true))));
            // Cleanup step 1 before the claim; its deletes ride in the claim's batch (one commit); step 3 after.
            cleaning = cleanup.prepare(visitedBuckets, plan.rows(), readAhead(plan, visitedBuckets), horizon, due);
        }
        Claim claim = ledger.claimAll(plan.rows(), cleaning.stale(), readMark);
        releaseUnsent(plan, claim);
        alarm.quarantined(claim.quarantined());
        countClaimed(visited, claim, nowNanos);
        List<CompletableFuture<Settled>> settles = send(visited, claim);
        finishCleanup(visited, cleaning, horizon, now, nowNanos);
        lastVisited = visited.size();
        int tenantsVisited = visited.size();
        int claimed = claim.claimed().size();
        if (events.active()) {
            TickFinished finished = new TickFinished(startedAt, tenantsVisited, claimed + claim.orphans().size(),
                    Duration.ofNanos(System.nanoTime() - startNanos));
            events.publish(l -> l.onTick(finished));
        }
        return new Run(rowBudget, claimed + claim.orphans().size(),
                report(settles, startedAt, tenantsVisited, claimed));
    }

    /** Tells the scheduler how many rows (orphans included) the claim took of each visited tenant. */
    private void countClaimed(List<TenantLane> visited, Claim claim, long nowNanos) {
        Map<Long, Integer> claimedByTenant = new HashMap<>();
        claim.claimed().forEach(c -> claimedByTenant.merge(c.row().ord(), 1, Integer::sum));
        claim.orphans().forEach(o -> claimedByTenant.merge(o.ord(), 1, Integer::sum));
        for (TenantLane lane : visited) {
            scheduler.claimed(lane, claimedByTenant.getOrDefault(lane.ord, 0), nowNanos);
        }
    }

    /**
     * Hands the claimed rows to the sinks and the orphans to the settler: one settle per row, claimed
     * rows first, in claim order, each giving its tenant's in-flight slot back when it completes.
     */
    private List<CompletableFuture<Settled>> send(List<TenantLane> visited, Claim claim) {
        Map<Long, TenantLane> lanes = new HashMap<>();
        visited.forEach(lane -> lanes.put(lane.ord, lane));
        List<CompletableFuture<Settled>> settles = new ArrayList<>(attempts.start(claim.claimed()));
        for (int i = 0; i < claim.claimed().size(); i++) {
            InflightRow row = claim.claimed().get(i).row();
            settles.set(i, release(settles.get(i), lanes.get(row.ord()), row));
        }
        for (InflightRow orphan : claim.orphans()) {
            settles.add(release(settler.drop(orphan), lanes.get(orphan.ord()), orphan));
        }
        return settles;
    }

    /**
     * Cleanup step 3: puts back the marker of every deleted bucket that still holds a due row, moves
     * each tenant's cursor to its earliest due row, and drops each visited lane's markers before
     * the second it keeps.
     */
    private void finishCleanup(List<TenantLane> visited, MarkerCleanup.Cleaning cleaning, long horizon, long now,
            long nowNanos) {
        Map<Long, Optional<DueRow>> firsts = cleanup.finish(cleaning);
        firsts.forEach((ord, first) -> cursors.update(ord, first, horizon));
        long kept = MarkerCleanup.bucketOf(horizon);
        for (TenantLane lane : visited) {
            Optional<DueRow> first = firsts.getOrDefault(lane.ord, Optional.empty());
            long keepFrom = Math.min(kept, first.map(r -> MarkerCleanup.bucketOf(r.at())).orElse(kept));
            lane.markers.headSet(keepFrom).clear();
            scheduler.cleaned(lane, first, now, nowNanos);
        }
    }

    /** The tick's report, complete once every settle of it is. */
    private static CompletionStage<TickReport> report(List<CompletableFuture<Settled>> settles, Instant startedAt,
            int tenantsVisited, int claimed) {
        return CompletableFuture.allOf(settles.toArray(CompletableFuture<?>[]::new))
                .thenApply(ignored -> {
                    Map<Settled, Integer> counts = new EnumMap<>(Settled.class);
                    settles.forEach(s -> counts.merge(s.join(), 1, Integer::sum));
                    return new TickReport(startedAt, tenantsVisited, claimed,
                            counts.getOrDefault(Settled.DELIVERED, 0), counts.getOrDefault(Settled.RETRIED, 0),
                            counts.getOrDefault(Settled.DEAD, 0), counts.getOrDefault(Settled.DROPPED, 0));
                });
    }

    /**
     * The scheduler's due reads that can stand for cleanup step 1: a tenant's reads of the plan,
     * from its floor on without a gate skip, started in its earliest scanned second (at its
     * start, or at a floor raised within it: see {@link TenantCursors} for the row such a floor
     * can hide, and for how long).
     */
    private static Map<Long, DueRead> readAhead(TenantScheduler.Plan plan, Map<Long, List<Long>> scanned) {
        Map<Long, DueRead> out = new HashMap<>();
        plan.ahead().forEach((ord, ahead) -> {
            List<Long> buckets = scanned.getOrDefault(ord, List.of());
            if (!buckets.isEmpty() && MarkerCleanup.bucketOf(ahead.floorAt()) == Collections.min(buckets)) {
                out.put(ord, ahead.read());
            }
        });
        return out;
    }

    /**
     * Rows the endpoint gate admitted that will not be sent (gone, quarantined, orphans) give their endpoint slot
     * back, and their ordering key's turn (an orphan's settle gives it back again).
     */
    private void releaseUnsent(TenantScheduler.Plan plan, Claim claim) {
        int planned = 0;
        for (List<DueRow> rows : plan.rows().values()) {
            planned += rows.size();
        }
        if (claim.claimed().size() == planned) {
            // The claim sends a subset of the planned rows: as many means every one of them.
            return;
        }
        Set<List<Long>> sent = new HashSet<>();
        claim.claimed().forEach(c -> sent.add(List.of(c.row().seq(), (long) c.row().sink())));
        for (List<DueRow> rows : plan.rows().values()) {
            for (DueRow row : rows) {
                if (!sent.contains(List.of(row.seq(), (long) row.sink()))) {
                    gate.unclaimed(row.ord(), row.sink());
                    order.unclaimed(row);
                }
            }
        }
    }

    /**
     * When {@code settle} completes, its ordering key's turn and its tenant's in-flight slot go back
     * to the scheduler (the key first, so the lane the settle wakes finds it free); the returned
     * stage completes after that, so a tick's report means its slots are back.
     */
    private CompletableFuture<Settled> release(CompletableFuture<Settled> settle, TenantLane lane, InflightRow row) {
        return settle.whenComplete((outcome, failure) -> {
            order.settled(row);
            scheduler.settled(lane);
        });
    }
}
