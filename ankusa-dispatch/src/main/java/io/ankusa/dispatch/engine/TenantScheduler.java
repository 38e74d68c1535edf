package io.ankusa.dispatch.engine;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.Rate;
import io.ankusa.api.TenantPolicy;
import io.ankusa.dispatch.report.DueTenants;
import io.ankusa.dispatch.report.TenantDispatch;
import io.ankusa.queue.admission.PolicyCache;
import io.ankusa.queue.admission.TokenBucket;
import io.ankusa.queue.ledger.DueRead;
import io.ankusa.queue.ledger.DueReader;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.TenantDirectory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who is next: deficit round-robin over the tenants with due work, each admitted by its own limits
 * (in-flight, delivery rate) and the {@link EndpointGate} before it claims.
 *
 * <p>The ready set is a ring of {@link TenantLane lanes}. A tick walks it once from where the last
 * tick stopped. A lane starting its turn adds {@code k × QUANTUM × weight} rows to its deficit, where
 * {@code k} is the same for every lane of the pass ({@code ceil(rows left / (QUANTUM × Σ weights))},
 * so one pass can fill the tick), and may claim up to its deficit, its in-flight room, its tokens
 * and what is left of the tick. The deficit never carries more than one turn: a lane that drained
 * (fewer due rows than it may take) or is at a limit yields its turn and its deficit goes to 0; a
 * lane cut short by the end of the tick stays at the head, in its turn, and finishes it next tick
 * without a new quantum. Rows of a tenant keep {@code at} order ({@code dueForTenant}).
 *
 * <p>A lane at its in-flight limit leaves the ring until a settle brings it under; a lane out of
 * tokens leaves it until its next token ({@link TokenBucket#nanosUntil}). Neither costs a store call
 * while waiting. A lane that drained leaves the ring until the active-index feed offers a marker
 * for it again.
 *
 * <p>The {@link EndpointGate} refuses rows of endpoints that are disabled, paused, behind an open
 * breaker or at their concurrency limit. A lane reads past refused rows (at most
 * {@value #SCAN_LIMIT} a visit) and remembers the last row it read ({@link TenantLane#skipAfter}),
 * so it does not read them again while the refusals hold; a lane with nothing but refused rows is
 * {@link TenantLane.State#BLOCKED}: out of the ring, at no store cost, until a refusal may have
 * ended (its time, a settle of the tenant for a full endpoint or for an open breaker with attempts
 * out, a move of the gate's epoch for a disabled one) or the feed brings a newer marker.
 *
 * <p>In-flight counts start at 0 on every pipeline: {@code Queue.open} has moved every inflight row
 * of the last run back to due before a pipeline can exist, so no claim of this pipeline's is
 * outstanding and a count taken over from the store would count rows that are due again.
 *
 * <p>Tick thread only, except {@link #settled}.
 */
final class TenantScheduler {

    /** Rows a weight-1 tenant may claim per turn when the tick has room for one turn of everyone. */
    static final int QUANTUM = 16;
    /** How long a tenant whose policy cannot be read waits before the scheduler asks again. */
    static final long POLICY_RETRY_NANOS = 1_000_000_000L;

    /**
     * How late a tick may serve a tenant waiting for tokens without costing it tokens: the tokens
     * it earned over the last second past its burst still count (bounded, so a stall does not turn
     * into an unbounded burst).
     */
    static final long LATENESS_CREDIT_NANOS = 1_000_000_000L;

    /** Most rows refused by the endpoint gate that one visit of a lane reads past. */
    static final int SCAN_LIMIT = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(TenantScheduler.class);

    private final TenantNames names;
    private final PolicyCache policies;
    private final EndpointGate gate;
    private final KeyOrder order;
    private final PendingLeaders leaders;
    private final OldestDue oldest;
    /** Envelope bytes a weight-1 tenant may claim per turn (beside {@link #QUANTUM} rows). */
    private final long quantumBytes;
    private final NavigableMap<Long, TenantLane> lanes = new TreeMap<>();
    private final ArrayDeque<TenantLane> ring = new ArrayDeque<>();
    private final PriorityQueue<TenantLane> waitingForTokens =
            new PriorityQueue<>(Comparator.comparingLong(l -> l.wakeNanos));
    private final ConcurrentLinkedQueue<TenantLane> settledFrom = new ConcurrentLinkedQueue<>();
    /** The policy cache's generation at the last {@link #wake}. */
    private long wokenAtGeneration = -1;
    /** Lanes whose every due row the endpoint gate refused ({@link TenantLane.State#BLOCKED}). */
    private final Set<TenantLane> blocked = new LinkedHashSet<>();
    private boolean heldBySlots;

    /**
     * What one tick plans to claim.
     *
     * @param rows    the rows to claim, by tenant
     * @param visited the lanes visited
     * @param ahead   per tenant whose due rows this plan read from the lane's floor without a gate
     *                skip: the rows read, with the row after them
     */
    record Plan(Map<Long, List<DueRow>> rows, List<TenantLane> visited, Map<Long, Ahead> ahead) {
    }

    /**
     * A lane's due reads of a plan, as one read from its floor.
     *
     * @param floorAt where the read started
     * @param read    the rows read and the row after them
     */
    record Ahead(long floorAt, DueRead read) {
    }

    /** The due reads of the plan under way ({@link #plan}); null between plans. */
    private DueReader reader;

    /** This plan's due reads by tenant; empty once a tenant was read past a gate skip or from its floor twice. */
    private final Map<Long, Optional<Ahead>> aheads = new HashMap<>();

    TenantScheduler(TenantDirectory directory, PolicyCache policies, EndpointGate gate,
            PendingLeaders leaders, OldestDue oldest, long quantumBytes) {
        this(directory, policies, gate, KeyOrder.NONE, leaders, oldest, quantumBytes);
    }

    TenantScheduler(TenantDirectory directory, PolicyCache policies, EndpointGate gate, KeyOrder order,
            PendingLeaders leaders, OldestDue oldest, long quantumBytes) {
        this.order = Objects.requireNonNull(order, "order");
        this.quantumBytes = quantumBytes;
        this.leaders = Objects.requireNonNull(leaders, "leaders");
        this.oldest = Objects.requireNonNull(oldest, "oldest");
        this.names = new TenantNames(directory);
        this.policies = Objects.requireNonNull(policies, "policies");
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    /**
     * The feed saw the markers of {@code page} (buckets by tenant): each tenant is
     * {@linkplain #offer offered}, and the names of those whose name is not kept yet are read
     * together, for their policies at their first turn (one multi-get a page rather than one read
     * per new tenant). A failed read of the names is left to each tenant's own read at its turn,
     * which reports it for that tenant.
     */
    void offer(Map<Long, List<Long>> page) {
        page.forEach(this::offer);
        try {
            names.prefetch(page.keySet());
        } catch (AnkusaException e) {
            LOG.debug("the names of a feed page could not be read together; each tenant reads its own", e);
        }
    }

    /** The feed saw tenant {@code ord}'s markers of {@code buckets}: it has (or had) due work. */
    void offer(long ord, Collection<Long> buckets) {
        TenantLane lane = lanes.computeIfAbsent(ord, o -> {
            leaders.known(o);
            return new TenantLane(o);
        });
        if (lane.state == TenantLane.State.BLOCKED && offersNewer(lane, buckets)) {
            blocked.remove(lane);
            ready(lane);
        }
        long newest = Long.MAX_VALUE;
        for (long bucket : buckets) {
            if (bucket < newest && !lane.markers.contains(bucket)) {
                newest = bucket;
            }
        }
        if (newest != Long.MAX_VALUE) {
            // A second it did not know: rows were ingested (revived, recovered) since.
            lane.markers.addAll(buckets);
            leaders.changed(ord);
            if (newest < lane.uncleanedBucket) {
                lane.uncleanedBucket = newest;
                oldest.mark(lane.ord, lane.oldestMarkNow());
            }
        }
        if (lane.state == TenantLane.State.IDLE) {
            ready(lane);
        }
    }

    /**
     * Whether {@code buckets} may hold a row the blocked lane has not read: a second it did not know,
     * or the second it was blocked in or a later one (a row committed since). The feed offers the
     * seconds of the parked rows again and again (their markers stay while they wait); those do
     * not wake the lane.
     */
    private static boolean offersNewer(TenantLane lane, Collection<Long> buckets) {
        for (long bucket : buckets) {
            if (bucket >= lane.blockedAtBucket || !lane.markers.contains(bucket)) {
                return true;
            }
        }
        return false;
    }

    /** A claim of tenant {@code lane} was settled (any thread). */
    void settled(TenantLane lane) {
        lane.settledSinceSkip = true;
        lane.inflight.decrementAndGet();
        settledFrom.add(lane);
    }

    /**
     * Lanes whose wait is over go back to the ring: settles since the last tick, tokens due by
     * {@code nowNanos}, and every waiting lane when a policy changed since the last wake (a raised
     * in-flight limit or rate must not wait for a settle or for a token time of the old policy).
     */
    void wake(long nowNanos) {
        long generation = policies.generation();
        if (generation != wokenAtGeneration) {
            wokenAtGeneration = generation;
            waitingForTokens.clear();
            for (TenantLane lane : lanes.values()) {
                if (lane.state == TenantLane.State.AT_INFLIGHT_LIMIT
                        || lane.state == TenantLane.State.WAITING_FOR_TOKENS) {
                    ready(lane);
                }
            }
        }
        for (TenantLane lane; (lane = settledFrom.poll()) != null;) {
            if (lane.state == TenantLane.State.AT_INFLIGHT_LIMIT && lane.inflightRoom() > 0) {
                ready(lane);
            }
        }
        if (!blocked.isEmpty()) {
            long epoch = gate.epoch();
            for (Iterator<TenantLane> it = blocked.iterator(); it.hasNext();) {
                TenantLane lane = it.next();
                if (lane.state != TenantLane.State.BLOCKED) {
                    it.remove();
                } else if (!lane.skipValid(nowNanos, epoch)) {
                    it.remove();
                    lane.clearSkip();
                    ready(lane);
                }
            }
        }
        while (!waitingForTokens.isEmpty() && waitingForTokens.peek().wakeNanos <= nowNanos) {
            TenantLane lane = waitingForTokens.poll();
            if (lane.state == TenantLane.State.WAITING_FOR_TOKENS) {
                ready(lane);
            }
        }
    }

    /**
     * One pass over the ring: reads each ready tenant's due rows (up to {@code now}) that its turn,
     * limits and the gate allow, until {@code rowBudget} rows or {@code byteBudget} bytes.
     *
     * @param floors the due-scan floor of a lane
     * @param due    the plan's due reads go through it (one store reader for the whole plan)
     */
    Plan plan(long now, long nowNanos, int rowBudget, long byteBudget, ToLongFunction<TenantLane> floors,
            DueReader due) {
        reader = Objects.requireNonNull(due, "due");
        try {
            return planWith(now, nowNanos, rowBudget, byteBudget, floors);
        } finally {
            reader = null;
        }
    }

    private Plan planWith(long now, long nowNanos, int rowBudget, long byteBudget, ToLongFunction<TenantLane> floors) {
        Map<Long, List<DueRow>> toClaim = new LinkedHashMap<>();
        Map<Long, TenantLane> visited = new LinkedHashMap<>();
        heldBySlots = false;
        aheads.clear();
        long[] left = {rowBudget, byteBudget};
        // Passes until the tick is full or a pass took nothing: a tenant that drained early leaves
        // its share of the tick to the others, in the same proportions.
        boolean progress = true;
        while (progress && left[0] > 0 && left[1] > 0 && !ring.isEmpty()) {
            progress = pass(now, nowNanos, left, floors, toClaim, visited);
        }
        Map<Long, Ahead> ahead = new HashMap<>();
        aheads.forEach((ord, read) -> read.ifPresent(a -> ahead.put(ord, a)));
        return new Plan(toClaim, List.copyOf(visited.values()), ahead);
    }

    private boolean pass(long now, long nowNanos, long[] left, ToLongFunction<TenantLane> floors,
            Map<Long, List<DueRow>> toClaim, Map<Long, TenantLane> visited) {
        long weights = 0;
        for (TenantLane lane : ring) {
            weights += refreshPolicy(lane, nowNanos) ? lane.policy.weight() : 0;
        }
        long rounds = Math.max(1, -Math.floorDiv(-left[0], Math.max(1, weights) * QUANTUM));
        int size = ring.size();
        boolean progress = false;
        for (int i = 0; i < size && left[0] > 0 && left[1] > 0; i++) {
            TenantLane lane = ring.pollFirst();
            if (!refreshPolicy(lane, nowNanos)) {
                waitForTokens(lane, nowNanos + POLICY_RETRY_NANOS);
                continue;
            }
            List<DueRow> planned = toClaim.getOrDefault(lane.ord, List.of());
            int room = lane.inflightRoom() - planned.size();
            if (room <= 0) {
                yieldTurn(lane, TenantLane.State.AT_INFLIGHT_LIMIT);
                continue;
            }
            if (lane.waitingSinceNanos == TenantLane.NOT_WAITING) {
                lane.waitingSinceNanos = nowNanos;
            }
            lane.earnSinceNanos = Math.max(lane.waitingSinceNanos, nowNanos - LATENESS_CREDIT_NANOS);
            long tokens = lane.tokens.available(nowNanos, lane.earnSinceNanos) - planned.size();
            if (tokens <= 0) {
                waitForTokens(lane, nowNanos + Math.max(1, lane.tokens.nanosUntil(planned.size() + 1, nowNanos)));
                continue;
            }
            if (!lane.inTurn) {
                lane.deficit = rounds * QUANTUM * lane.policy.weight();
                lane.byteDeficit = saturatedProduct(rounds * lane.policy.weight(), quantumBytes);
                lane.turnStarted = true;
                lane.inTurn = true;
            }
            long may = Math.min(Math.min(lane.deficit, room), tokens);
            int want = (int) Math.min(may, left[0]);
            visited.put(lane.ord, lane);
            List<DueRow> admitted = new ArrayList<>();
            long[] bytes = {0};
            boolean[] byteLimited = {false};
            boolean drained = readAdmitted(lane, now, nowNanos, planned, want, left[1], floors, admitted, bytes,
                    byteLimited);
            lane.byteDeficit -= bytes[0];
            lane.turnStarted = lane.turnStarted && admitted.isEmpty();
            if (!admitted.isEmpty()) {
                List<DueRow> all = new ArrayList<>(planned);
                all.addAll(admitted);
                toClaim.put(lane.ord, all);
                progress = true;
            }
            left[0] -= admitted.size();
            left[1] -= bytes[0];
            lane.deficit -= admitted.size();
            placeAfterRead(lane, now, drained, lane.deficit <= 0 || want == may || byteLimited[0]);
        }
        return progress;
    }

    /**
     * Where a lane goes after its read of a pass: blocked or idle when it {@code drained} its due
     * rows, to the back of the ring when its turn is over, else to the front (cut short by the end
     * of the tick).
     */
    private void placeAfterRead(TenantLane lane, long now, boolean drained, boolean turnOver) {
        if (!drained || lane.skipAfter == null) {
            // Visited and not blocked: not held, its refused head rows (if any) end at the last row read.
            oldest.hold(lane.ord, TenantDispatch.Hold.NONE, lane.skipAfter == null ? Long.MIN_VALUE
                    : lane.skipAfter.at());
        }
        if (drained && lane.skipAfter != null) {
            // All it has left is refused by the endpoint gate: it leaves the ring until a
            // refusal may have ended (wake) or the feed brings a newer marker.
            yieldTurn(lane, TenantLane.State.BLOCKED);
            lane.blockedAtBucket = Math.floorDiv(now, 1000);
            blocked.add(lane);
        } else if (drained) {
            // Fewer due rows than the lane may take: it yields the rest of its turn and leaves
            // the ring until the feed brings a marker again (or the cleanup finds a row).
            yieldTurn(lane, TenantLane.State.IDLE);
        } else if (turnOver) {
            // Its turn is used, or it was stopped by its own in-flight room or tokens (then it
            // yields the rest): to the back of the ring.
            lane.inTurn = false;
            lane.deficit = 0;
            ring.addLast(lane);
        } else {
            // Cut short by the end of the tick: it finishes its turn first next tick.
            ring.addFirst(lane);
        }
    }

    /**
     * Reads the lane's due rows and asks the gate about each until {@code want} are admitted (into
     * {@code admitted}, their bytes added to {@code bytes[0]}) or the rows run out. Rows the gate
     * refuses are left behind: the lane remembers the last row read ({@link TenantLane#skipAfter})
     * and reads after it, in this tick and the next ones, while the refusals hold — so refused
     * rows are not read again every tick, and rows of other endpoints behind them are reached
     * (at most {@value #SCAN_LIMIT} refused rows per visit; the next visit goes on from there).
     *
     * @return whether the lane has no more due rows to offer now (it drained)
     */
    private boolean readAdmitted(TenantLane lane, long now, long nowNanos, List<DueRow> planned, int want,
            long byteBudget,
            ToLongFunction<TenantLane> floors, List<DueRow> admitted, long[] bytes, boolean[] byteLimited) {
        long epoch = gate.epoch();
        if (lane.skipAfter != null && !lane.skipValid(nowNanos, epoch)) {
            lane.clearSkip();
        }
        if (lane.skipAfter == null) {
            lane.startSkip(nowNanos, epoch);
        }
        int refusedRows = 0;
        while (true) {
            int asked = want - admitted.size();
            long budget = byteBudget - bytes[0];
            List<DueRow> read;
            if (lane.skipAfter != null) {
                aheads.put(lane.ord, Optional.empty());
                read = reader.dueForTenantAfter(lane.ord, now, lane.skipAfter, asked, budget);
            } else {
                read = readAfter(lane, now, planned, asked, budget, floors);
            }
            boolean refusedAny = false;
            DueRow last = null;
            for (DueRow row : read) {
                if (bytes[0] + row.size() > lane.byteDeficit && !(lane.turnStarted && admitted.isEmpty())) {
                    // The turn's byte quantum is spent (its first row goes whatever its size): the
                    // rest of its rows wait for its next turn.
                    byteLimited[0] = true;
                    break;
                }
                last = row;
                long until;
                if (order.admit(row)) {
                    until = gate.admit(row, nowNanos);
                    if (until != EndpointGate.ADMITTED) {
                        order.unclaimed(row);
                        lane.gateRefused = true;
                    }
                } else {
                    // Behind its key's head: waits for a settle of the tenant (the head's).
                    until = EndpointGate.UNTIL_SETTLED;
                }
                if (until == EndpointGate.ADMITTED) {
                    admitted.add(row);
                    bytes[0] += row.size();
                } else {
                    heldBySlots |= until == EndpointGate.UNTIL_SETTLED;
                    lane.refused(until, until != EndpointGate.UNTIL_SETTLED && until != EndpointGate.UNTIL_CHANGED
                            && gate.mayEndOnAnswer(row.ord(), row.sink()));
                    refusedAny = true;
                    refusedRows++;
                }
            }
            if (last != null && (refusedAny || lane.skipAfter != null)) {
                lane.skipAfter = last;
            }
            if (byteLimited[0]) {
                return false;
            }
            boolean drained = read.size() < asked && byteBudget - bytes[0] > 0;
            if (drained || !refusedAny || admitted.size() >= want || refusedRows >= SCAN_LIMIT) {
                return drained;
            }
        }
    }

    /**
     * Up to {@code want} of the lane's due rows after those already {@code planned} this tick (a
     * second pass reads on from the last planned row: rows of the same time already planned are
     * read again and skipped).
     */
    private List<DueRow> readAfter(TenantLane lane, long now, List<DueRow> planned, int want, long bytes,
            ToLongFunction<TenantLane> floors) {
        if (planned.isEmpty()) {
            // One seek gives the rows and the row after them: the marker cleanup's first step
            // for this tenant (with the reads that follow it in this plan, extendAhead).
            long floorAt = floors.applyAsLong(lane);
            DueRead read = reader.dueForTenantAhead(lane.ord, now, floorAt, want, bytes);
            aheads.merge(lane.ord, Optional.of(new Ahead(floorAt, read)), (was, again) -> Optional.empty());
            return read.rows();
        }
        long lastAt = planned.get(planned.size() - 1).at();
        int sameAt = (int) planned.stream().filter(r -> r.at() == lastAt).count();
        DueRead raw = reader.dueForTenantAhead(lane.ord, now, lastAt, want + sameAt, Long.MAX_VALUE);
        extendAhead(lane.ord, raw);
        List<DueRow> read = new ArrayList<>(raw.rows());
        read.removeAll(planned);
        List<DueRow> out = new ArrayList<>(Math.min(want, read.size()));
        long total = 0;
        for (DueRow row : read) {
            if (out.size() == want || (!out.isEmpty() && total + row.size() > bytes)) {
                break;
            }
            out.add(row);
            total += row.size();
        }
        return out;
    }

    /**
     * A later read of a lane in the same plan, from the time of its last planned row: the rows
     * planned came from the lane's reads so far, so this read starts inside the range they
     * covered, and together they cover one range from the floor. Its rows join the earlier ones;
     * the row after them is the later read's next when it reached past them, else the earlier one.
     */
    private void extendAhead(long ord, DueRead later) {
        Optional<Ahead> was = aheads.getOrDefault(ord, Optional.empty());
        if (was.isEmpty()) {
            aheads.put(ord, Optional.empty());
            return;
        }
        DueRead earlier = was.get().read();
        List<DueRow> rows = new ArrayList<>(earlier.rows());
        DueRow last = rows.isEmpty() ? null : rows.get(rows.size() - 1);
        boolean reachedPast = false;
        for (DueRow row : later.rows()) {
            if (last == null || KEY_ORDER.compare(row, last) > 0) {
                rows.add(row);
                reachedPast = true;
            }
        }
        Optional<DueRow> next = reachedPast ? later.next() : earlier.next();
        aheads.put(ord, Optional.of(new Ahead(was.get().floorAt(), new DueRead(rows, next))));
    }

    /** A tenant's due rows in key order: due time, seq, sink. */
    private static final Comparator<DueRow> KEY_ORDER = Comparator.comparingLong(DueRow::at)
            .thenComparingLong(DueRow::seq).thenComparingInt(DueRow::sink);

    /** {@code a × b}, or {@link Long#MAX_VALUE} when that overflows. */
    private static long saturatedProduct(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }

    /** After the claim: tenant {@code lane} has {@code count} more rows in flight and spent as many tokens. */
    void claimed(TenantLane lane, int count, long nowNanos) {
        if (count == 0) {
            return;
        }
        lane.inflight.addAndGet(count);
        leaders.changed(lane.ord);
        if (!lane.tokens.tryTake(count, nowNanos, lane.earnSinceNanos)) {
            // Only when the policy's rate dropped between the plan and now: take what is there.
            lane.tokens.tryTake(Math.min(count, lane.tokens.available(nowNanos, lane.earnSinceNanos)), nowNanos,
                    lane.earnSinceNanos);
        }
    }

    /**
     * After the cleanup of a visited lane: its earliest due row as the cleanup saw it. A lane whose
     * earliest row is due goes back to the ring if it had left it; a lane with nothing left to know
     * is forgotten.
     */
    void cleaned(TenantLane lane, Optional<DueRow> first, long now, long nowNanos) {
        lane.firstDueAt = first.map(DueRow::at).orElse(Long.MAX_VALUE);
        lane.uncleanedBucket = Long.MAX_VALUE;
        oldest.mark(lane.ord, lane.oldestMarkNow());
        if (first.isPresent() && first.get().at() <= now && lane.state == TenantLane.State.IDLE) {
            ready(lane);
        }
        if (lane.forgettable(nowNanos)) {
            lanes.remove(lane.ord);
            leaders.forgotten(lane.ord);
            oldest.forget(lane.ord);
        }
    }

    /** The feed has reached the present once: the scheduler knows every tenant with due work up to now. */
    void feedCaughtUp() {
        oldest.feedCaughtUp();
    }

    /** The lane of tenant {@code ord}, if the scheduler knows it. */
    Optional<TenantLane> lane(long ord) {
        return Optional.ofNullable(lanes.get(ord));
    }

    /** What the scheduler knows of tenant {@code ord} now, if it knows it. */
    Optional<TenantDispatch> view(long ord, long nowNanos) {
        TenantLane lane = lanes.get(ord);
        return lane == null ? Optional.empty() : Optional.of(view(lane, nowNanos));
    }

    /** Up to {@code limit} lanes with due work (any state but idle) after ordinal {@code after}. */
    DueTenants dueTenants(long after, int limit, long nowNanos) {
        List<TenantDispatch> page = new ArrayList<>(Math.min(limit, 256));
        long last = after;
        for (TenantLane lane : lanes.tailMap(after, false).values()) {
            if (lane.state == TenantLane.State.IDLE) {
                continue;
            }
            if (page.size() == limit) {
                return new DueTenants(page, OptionalLong.of(last));
            }
            page.add(view(lane, nowNanos));
            last = lane.ord;
        }
        return new DueTenants(page, OptionalLong.empty());
    }

    private TenantDispatch view(TenantLane lane, long nowNanos) {
        String name = lane.name;
        TenantPolicy policy = lane.policy;
        try {
            if (name == null) {
                name = names.name(lane.ord).orElse("#" + lane.ord);
            }
            if (policy == null) {
                policy = policies.policyFor(name);
            }
        } catch (AnkusaException e) {
            // A read for monitoring: the tenant's ordinal and the default policy rather than a failure.
            name = name == null ? "#" + lane.ord : name;
            policy = policy == null ? TenantPolicy.DEFAULT : policy;
        }
        Rate rate = policy.deliveryRate();
        long tokens = rate.unlimited() ? Long.MAX_VALUE : lane.tokens == null ? rate.burst()
                : lane.tokens.available(nowNanos);
        TenantDispatch.Hold hold = switch (lane.state) {
            case AT_INFLIGHT_LIMIT -> TenantDispatch.Hold.IN_FLIGHT_LIMIT;
            case BLOCKED -> lane.gateRefused ? TenantDispatch.Hold.ENDPOINTS : TenantDispatch.Hold.ORDERING;
            case WAITING_FOR_TOKENS -> lane.policyUnreadable ? TenantDispatch.Hold.POLICY_UNREADABLE
                    : TenantDispatch.Hold.DELIVERY_RATE;
            default -> TenantDispatch.Hold.NONE;
        };
        return new TenantDispatch(name, policy.weight(), lane.inflight.get(), policy.maxInflight(), rate, tokens, hold);
    }

    /** Whether the last plan left rows due because their endpoint was at its concurrency limit. */
    boolean heldByEndpointSlots() {
        return heldBySlots;
    }

    /** Reads of a tenant's name from the directory so far (the rest came from the cache). */
    long nameReads() {
        return names.reads();
    }

    /** Lanes the scheduler knows. */
    int knownTenants() {
        return lanes.size();
    }

    /**
     * The earliest time (monotonic nanos) a lane waiting for tokens may be served again; {@link Long#MAX_VALUE} when
     * none waits.
     */
    long nextTokenNanos() {
        TenantLane first = waitingForTokens.peek();
        return first == null ? Long.MAX_VALUE : first.wakeNanos;
    }

    /** Lanes in the ring now. */
    int readyTenants() {
        return ring.size();
    }

    private void ready(TenantLane lane) {
        lane.state = TenantLane.State.READY;
        ring.addLast(lane);
    }

    private void yieldTurn(TenantLane lane, TenantLane.State state) {
        lane.inTurn = false;
        lane.deficit = 0;
        lane.state = state;
        // Drained, at its in-flight limit or blocked: it is not waiting for tokens.
        lane.waitingSinceNanos = TenantLane.NOT_WAITING;
        if (state == TenantLane.State.AT_INFLIGHT_LIMIT && lane.inflightRoom() > 0) {
            // A settle raced the decision: do not wait for another.
            ready(lane);
            return;
        }
        TenantDispatch.Hold hold = switch (state) {
            case AT_INFLIGHT_LIMIT -> TenantDispatch.Hold.IN_FLIGHT_LIMIT;
            case BLOCKED -> lane.gateRefused ? TenantDispatch.Hold.ENDPOINTS : TenantDispatch.Hold.ORDERING;
            default -> TenantDispatch.Hold.NONE;
        };
        if (hold != TenantDispatch.Hold.NONE || state == TenantLane.State.IDLE) {
            oldest.hold(lane.ord, hold, Long.MIN_VALUE);
        }
    }

    private void waitForTokens(TenantLane lane, long wakeNanos) {
        lane.inTurn = false;
        lane.deficit = 0;
        lane.state = TenantLane.State.WAITING_FOR_TOKENS;
        lane.wakeNanos = wakeNanos;
        waitingForTokens.add(lane);
        oldest.hold(lane.ord, lane.policyUnreadable ? TenantDispatch.Hold.POLICY_UNREADABLE
                : TenantDispatch.Hold.DELIVERY_RATE, Long.MIN_VALUE);
    }

    /** Reads the lane's policy when it has none or the cache was invalidated since; false when it cannot be read. */
    private boolean refreshPolicy(TenantLane lane, long nowNanos) {
        long generation = policies.generation();
        if (lane.policy != null && lane.policyGeneration == generation) {
            return true;
        }
        TenantPolicy policy;
        lane.policyUnreadable = true;
        try {
            if (lane.name == null) {
                lane.name = names.name(lane.ord).orElse(null);
            }
            policy = lane.name == null ? TenantPolicy.DEFAULT : policies.policyFor(lane.name);
        } catch (AnkusaException e) {
            LOG.error("tenant {}: its policy could not be read; its rows stay due and it is asked again in a second",
                    lane.name, e);
            return false;
        }
        lane.policy = policy;
        lane.policyUnreadable = false;
        lane.policyGeneration = generation;
        if (lane.tokens == null) {
            lane.tokens = new TokenBucket(policy.deliveryRate(), nowNanos);
        } else {
            lane.tokens.rate(policy.deliveryRate(), nowNanos);
        }
        return true;
    }
}
