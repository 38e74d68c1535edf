package io.ankusa.queue.deliveries;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantStats;
import io.ankusa.keys.ActiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.CounterKey;
import io.ankusa.keys.DeadByTenantKey;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.OrderKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.Ordinals;
import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.AttemptRecord;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeadEntry;
import io.ankusa.queue.ledger.DeadRow;
import io.ankusa.queue.ledger.DueRead;
import io.ankusa.queue.ledger.DueReader;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.DueStamps;
import io.ankusa.queue.ledger.EndpointRow;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.queue.ledger.OrderGroup;
import io.ankusa.queue.ledger.QuarantinedRow;
import io.ankusa.queue.ledger.QueueClock;
import io.ankusa.queue.ledger.Settlement;
import io.ankusa.store.Cursor;
import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.WriteBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link DeliveryLedger} over a store: range reads of the tenant-keyed index, and transitions
 * built by {@link Deliveries} and committed in one batch each.
 *
 * <p>Why counters stay exact: every transition that consumes a row first reads it (due and dead
 * rows under the tenant's stripe; inflight rows under the stripes of their tenants too, which
 * costs nothing and protects against a double settle), builds its ops from the row <em>as
 * stored</em> (size and kind from the stored value, not from the caller's copy), and commits the
 * row change and its deltas atomically. A row that is no longer there is skipped, so no delta is
 * ever written for a row that did not move. The one exception to the read under the stripe is a
 * tick's claim of rows it read after {@link #dueReadMark()}: when no due row was removed since
 * (the stripes count every claim and purge), its rows are stored as read, and the claim uses them
 * without reading them again.
 */
public final class StoreDeliveryLedger implements DeliveryLedger {

    private static final Logger LOG = LoggerFactory.getLogger(StoreDeliveryLedger.class);

    /** Rows per synced batch when recovering inflight rows. */
    static final int RECOVER_CHUNK = 500;

    /** Stale markers skipped before {@link #oldestDueAt()} reports a bucket start. */
    static final int STALE_MARKERS_SKIPPED = 32;

    private final Store store;
    private final TenantStripes stripes;
    private final QueueClock clock;
    private final AttemptHistory history;
    private final UnreadAttempts unread;
    private final DueStamps stamps;

    /**
     * A ledger over {@code store}, with an attempt history of the default bound (20 per delivery),
     * whose claims read every delivery row.
     */
    public StoreDeliveryLedger(Store store, TenantStripes stripes, QueueClock clock) {
        this(store, stripes, clock, new AttemptHistory(store, stripes, 20));
    }

    /** A ledger over {@code store} that records attempts in {@code history}, whose claims read every delivery row. */
    public StoreDeliveryLedger(Store store, TenantStripes stripes, QueueClock clock, AttemptHistory history) {
        this(store, stripes, clock, history, Long.MAX_VALUE);
    }

    /**
     * A ledger over {@code store} that records attempts in {@code history}, made when the queue
     * opens: {@code lastSeqAtOpen} is the highest seq the store held then (every delivery row's seq
     * is at or below it). A claim reads the delivery rows of retries and of rows at or below it,
     * and takes a first attempt above it, written in this run, as 0 attempts so far
     * ({@link UnreadAttempts}).
     */
    public StoreDeliveryLedger(Store store, TenantStripes stripes, QueueClock clock, AttemptHistory history,
            long lastSeqAtOpen) {
        this.store = Objects.requireNonNull(store, "store");
        this.stripes = Objects.requireNonNull(stripes, "stripes");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.history = Objects.requireNonNull(history, "history");
        this.unread = new UnreadAttempts(lastSeqAtOpen);
        this.stamps = new DueStamps(clock);
    }

    @Override
    public List<ActiveTenant> activeTenants(long now, int limit) {
        requireLimit(limit);
        List<ActiveTenant> out = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(ActiveKey.upTo(ActiveKey.bucketOf(now))))) {
            while (out.size() < limit && scan.hasNext()) {
                ActiveKey marker = ActiveKey.decode(scan.next().key());
                out.add(new ActiveTenant(marker.ord(), marker.bucket()));
            }
        }
        return out;
    }

    @Override
    public List<ActiveTenant> activeTenantsAfter(long bucket, long ord, long now, int limit) {
        requireLimit(limit);
        List<ActiveTenant> out = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX,
                Ranges.of(ActiveKey.after(bucket, ord, ActiveKey.bucketOf(now))))) {
            while (out.size() < limit && scan.hasNext()) {
                ActiveKey marker = ActiveKey.decode(scan.next().key());
                out.add(new ActiveTenant(marker.ord(), marker.bucket()));
            }
        }
        return out;
    }

    @Override
    public List<DueRow> dueForTenant(long ord, long now, long floorAt, int limit, long byteBudget) {
        return dueForTenant(this::scanIndex, ord, now, floorAt, limit, byteBudget);
    }

    @Override
    public DueRead dueForTenantAhead(long ord, long now, long floorAt, int limit, long byteBudget) {
        return dueForTenantAhead(this::scanIndex, ord, now, floorAt, limit, byteBudget);
    }

    @Override
    public List<DueRow> dueForTenantAfter(long ord, long now, DueRow after, int limit, long byteBudget) {
        return dueForTenantAfter(this::scanIndex, ord, now, after, limit, byteBudget);
    }

    /**
     * The due reads through one store {@link Cursor} over the index: one iterator (RocksDB) or read
     * transaction (LMDB) for every read, positioned again for each, opened at the first read (a
     * tick with nothing to read opens none).
     */
    @Override
    public DueReader dueReader() {
        return new CursorDueReader(store);
    }

    /** The due reads through one store cursor, opened at the first read and positioned again for each. */
    private static final class CursorDueReader implements DueReader {
        private final Store store;
        private Cursor cursor;

        CursorDueReader(Store store) {
            this.store = store;
        }

        private Scan seek(KeyRange range) {
            if (cursor == null) {
                cursor = store.cursor(ColumnFamilies.INDEX);
            }
            return cursor.seek(range);
        }

        @Override
        public List<DueRow> dueForTenant(long ord, long now, long floorAt, int limit, long byteBudget) {
            return StoreDeliveryLedger.dueForTenant(this::seek, ord, now, floorAt, limit, byteBudget);
        }

        @Override
        public List<DueRow> dueForTenantAfter(long ord, long now, DueRow after, int limit, long byteBudget) {
            return StoreDeliveryLedger.dueForTenantAfter(this::seek, ord, now, after, limit, byteBudget);
        }

        @Override
        public DueRead dueForTenantAhead(long ord, long now, long floorAt, int limit, long byteBudget) {
            return StoreDeliveryLedger.dueForTenantAhead(this::seek, ord, now, floorAt, limit, byteBudget);
        }

        @Override
        public void close() {
            if (cursor != null) {
                cursor.close();
                cursor = null;
            }
        }
    }

    private Scan scanIndex(KeyRange range) {
        return store.scan(ColumnFamilies.INDEX, range);
    }

    private static List<DueRow> dueForTenant(Function<KeyRange, Scan> reader, long ord, long now, long floorAt,
            int limit,
            long byteBudget) {
        Ordinals.requireTenant(ord);
        requireLimit(limit);
        if (now < floorAt) {
            return List.of();
        }
        List<DueRow> out = new ArrayList<>();
        long bytes = 0;
        try (Scan scan = reader.apply(Ranges.of(DueKey.tenantRange(ord, Math.max(0, floorAt), now)))) {
            while (out.size() < limit && scan.hasNext()) {
                KeyValue kv = scan.next();
                DueRow row = DueRows.decode(kv.key(), kv.value());
                if (!out.isEmpty() && bytes + row.size() > byteBudget) {
                    break;
                }
                bytes += row.size();
                out.add(row);
            }
        }
        return out;
    }

    private static DueRead dueForTenantAhead(Function<KeyRange, Scan> reader, long ord, long now, long floorAt,
            int limit,
            long byteBudget) {
        Ordinals.requireTenant(ord);
        requireLimit(limit);
        List<DueRow> out = new ArrayList<>();
        long bytes = 0;
        try (Scan scan = reader.apply(Ranges.of(DueKey.tenantRange(ord, Math.max(0, floorAt), Long.MAX_VALUE)))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                DueRow row = DueRows.decode(kv.key(), kv.value());
                if (out.size() == limit || row.at() > now || (!out.isEmpty() && bytes + row.size() > byteBudget)) {
                    return new DueRead(out, Optional.of(row));
                }
                bytes += row.size();
                out.add(row);
            }
        }
        return new DueRead(out, Optional.empty());
    }

    private static List<DueRow> dueForTenantAfter(Function<KeyRange, Scan> reader, long ord, long now, DueRow after,
            int limit,
            long byteBudget) {
        Ordinals.requireTenant(ord);
        requireLimit(limit);
        if (after.ord() != ord) {
            throw new IllegalArgumentException("row of tenant " + after.ord() + " as the start of tenant " + ord
                    + "'s rows");
        }
        if (now < after.at()) {
            return List.of();
        }
        List<DueRow> out = new ArrayList<>();
        long bytes = 0;
        byte[] start = new DueKey(ord, after.at(), after.seq(), after.sink()).encode();
        try (Scan scan = reader.apply(Ranges.after(start, DueKey.tenantRange(ord, after.at(), now)))) {
            while (out.size() < limit && scan.hasNext()) {
                KeyValue kv = scan.next();
                DueRow row = DueRows.decode(kv.key(), kv.value());
                if (!out.isEmpty() && bytes + row.size() > byteBudget) {
                    break;
                }
                bytes += row.size();
                out.add(row);
            }
        }
        return out;
    }

    @Override
    public OptionalLong orderHead(long ord, int sink, long group) {
        try (Scan scan = store.scan(ColumnFamilies.ORDERING, Ranges.of(OrderKey.groupRange(ord, sink, group)))) {
            return scan.hasNext() ? OptionalLong.of(OrderKey.decode(scan.next().key()).seq()) : OptionalLong.empty();
        }
    }

    @Override
    public List<OrderGroup> orderGroups(long ord, int limit, int scanLimit) {
        List<OrderKey> heads = new ArrayList<>();
        List<Long> waitingOf = new ArrayList<>();
        KeySpan tenant = OrderKey.tenantRange(Ordinals.requireTenant(ord));
        try (Scan scan = store.scan(ColumnFamilies.ORDERING, Ranges.of(tenant))) {
            OrderKey head = null;
            long waiting = 0;
            for (int read = 0; read < scanLimit && scan.hasNext(); read++) {
                OrderKey k = OrderKey.decode(scan.next().key());
                if (head != null && (k.sink() != head.sink() || k.group() != head.group())) {
                    heads.add(head);
                    waitingOf.add(waiting);
                    head = null;
                    if (heads.size() == limit) {
                        break;
                    }
                }
                if (head == null) {
                    head = k;
                    waiting = 0;
                }
                waiting++;
            }
            if (head != null) {
                heads.add(head);
                waitingOf.add(waiting);
            }
        }
        List<Optional<byte[]>> rows = store.multiGet(ColumnFamilies.DELIVERIES,
                heads.stream().map(h -> new DeliveryKey(h.seq(), h.sink()).encode()).toList());
        List<OrderGroup> out = new ArrayList<>(heads.size());
        for (int i = 0; i < heads.size(); i++) {
            OrderKey h = heads.get(i);
            DeliveryRow row = rows.get(i).flatMap(StoreDeliveryLedger::decodedRow).orElse(null);
            out.add(new OrderGroup(ord, h.sink(), h.group(), h.seq(), waitingOf.get(i),
                    row == null ? 0 : row.attempts(), row == null ? "" : row.lastError()));
        }
        return out;
    }

    /** A delivery row for a read that reports it; empty when it does not decode (the claim quarantines it). */
    private static Optional<DeliveryRow> decodedRow(byte[] value) {
        try {
            return Optional.of(DeliveryRow.decode(value));
        } catch (StoreCorruptionException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<DueRow> firstDue(long ord) {
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(DueKey.tenantRange(Ordinals.requireTenant(ord))))) {
            if (scan.hasNext()) {
                KeyValue kv = scan.next();
                return Optional.of(DueRows.decode(kv.key(), kv.value()));
            }
        }
        return Optional.empty();
    }

    @Override
    public OptionalLong oldestDueAt() {
        List<ActiveKey> markers = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(ActiveKey.FAMILY.between()))) {
            while (markers.size() <= STALE_MARKERS_SKIPPED && scan.hasNext()) {
                markers.add(ActiveKey.decode(scan.next().key()));
            }
        }
        for (int i = 0; i < markers.size(); i++) {
            ActiveKey marker = markers.get(i);
            if (i == STALE_MARKERS_SKIPPED) {
                return OptionalLong.of(marker.bucket() * 1000);
            }
            Optional<DueRow> first = firstDue(marker.ord());
            if (first.isPresent() && ActiveKey.bucketOf(first.get().at()) <= marker.bucket()) {
                return OptionalLong.of(first.get().at());
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public List<DeadRow> deadRows(long ord, int limit) {
        requireLimit(limit);
        List<DeadRow> out = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX,
                Ranges.of(DeadByTenantKey.tenantRange(Ordinals.requireTenant(ord))))) {
            while (out.size() < limit && scan.hasNext()) {
                DeadByTenantKey k = DeadByTenantKey.decode(scan.next().key());
                out.add(new DeadRow(k.ord(), k.at(), k.seq(), k.sink()));
            }
        }
        return out;
    }

    @Override
    public List<DeadEntry> deadEntries(long ord, Optional<DeadRow> after, int limit) {
        requireLimit(limit);
        KeySpan range = DeadByTenantKey.tenantRange(Ordinals.requireTenant(ord));
        List<DeadByTenantKey> keys = new ArrayList<>();
        Optional<byte[]> start = after.map(d -> new DeadByTenantKey(ord, d.at(), d.seq(), d.sink()).encode());
        try (Scan scan = store.scan(ColumnFamilies.INDEX,
                start.map(k -> Ranges.after(k, range)).orElse(Ranges.of(range)))) {
            while (keys.size() < limit && scan.hasNext()) {
                keys.add(DeadByTenantKey.decode(scan.next().key()));
            }
        }
        if (keys.isEmpty()) {
            return List.of();
        }
        List<Optional<byte[]>> values =
                store.multiGet(ColumnFamilies.INDEX, keys.stream().map(k -> k.deadKey().encode()).toList());
        List<DeadEntry> out = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            DeadByTenantKey k = keys.get(i);
            if (values.get(i).isEmpty()) {
                throw new StoreCorruptionException("dead-by-tenant row " + k + " has no dead row");
            }
            DeadKey.Value v = DeadKey.decodeValue(values.get(i).get());
            out.add(new DeadEntry(new DeadRow(k.ord(), k.at(), k.seq(), k.sink()), v.sourceId(), v.hookId()));
        }
        return out;
    }

    @Override
    public List<DeadEntry> deadPage(Optional<DeadRow> before, int limit) {
        requireLimit(limit);
        KeySpan family = DeadKey.FAMILY.between();
        byte[] end = before.map(d -> new DeadKey(d.at(), d.seq(), d.sink()).encode()).orElse(family.to());
        if (Arrays.compareUnsigned(end, family.from()) <= 0) {
            return List.of();
        }
        List<DeadEntry> out = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(new KeySpan(family.from(), end)),
                Direction.REVERSE)) {
            while (out.size() < limit && scan.hasNext()) {
                KeyValue kv = scan.next();
                DeadKey k = DeadKey.decode(kv.key());
                DeadKey.Value v = DeadKey.decodeValue(kv.value());
                out.add(new DeadEntry(new DeadRow(v.ord(), k.at(), k.seq(), k.sink()), v.sourceId(), v.hookId()));
            }
        }
        return out;
    }

    @Override
    public QueueStats stats() {
        return Counters.read(store, Ordinals.AGGREGATE).queueStats();
    }

    @Override
    public TenantStats tenantStats(long ord) {
        return Counters.read(store, Ordinals.requireTenant(ord)).tenantStats();
    }

    @Override
    public long[] pending(List<Long> ords) {
        if (ords.isEmpty()) {
            return new long[0];
        }
        return store.counters(ColumnFamilies.COUNTERS, ords.stream()
                .map(ord -> new CounterKey(Ordinals.requireTenant(ord), CounterField.PENDING.number()).encode())
                .toList());
    }

    @Override
    public DueStamps dueStamps() {
        return stamps;
    }

    @Override
    public QueueClock clock() {
        return clock;
    }

    @Override
    public Claim claim(long ord, List<DueRow> rows) {
        Ordinals.requireTenant(ord);
        for (DueRow row : rows) {
            if (row.ord() != ord) {
                throw new IllegalArgumentException("row of tenant " + row.ord() + " in a claim for tenant " + ord);
            }
        }
        Map<DueKey, DueRow> unique = uniqueByKey(rows);
        if (unique.isEmpty()) {
            return Claim.empty();
        }
        // The hooks before the stripe (the delivery rows are read under it: a claim without a mark reads its rows
        // again).
        ClaimReads before = ClaimReads.hooksOf(store, unique.values(), unread);
        return stripes.locked(ord, () -> {
            try {
                return claimLocked(unique, new DeliveryBatch(), false, before);
            } finally {
                stripes.removedDue();
            }
        });
    }

    @Override
    public Claim claimAll(Map<Long, List<DueRow>> rowsByTenant) {
        return claimAll(rowsByTenant, Map.of());
    }

    @Override
    public Claim claimAll(Map<Long, List<DueRow>> rowsByTenant, Map<Long, ? extends Collection<Long>> staleMarkers) {
        return claimAll(rowsByTenant, staleMarkers, Long.MIN_VALUE);
    }

    @Override
    public long dueReadMark() {
        return stripes.dueRemovals();
    }

    @Override
    public Claim claimAll(Map<Long, List<DueRow>> rowsByTenant, Map<Long, ? extends Collection<Long>> staleMarkers,
            long readMark) {
        List<DueRow> all = new ArrayList<>();
        rowsByTenant.forEach((ord, rows) -> {
            Ordinals.requireTenant(ord);
            for (DueRow row : rows) {
                if (row.ord() != ord) {
                    throw new IllegalArgumentException("row of tenant " + row.ord() + " in a claim for tenant " + ord);
                }
            }
            all.addAll(rows);
        });
        Map<DueKey, DueRow> unique = uniqueByKey(all);
        DeliveryBatch batch = new DeliveryBatch();
        deleteMarkerOps(batch, staleMarkers);
        if (unique.isEmpty()) {
            if (!batch.isEmpty()) {
                batch.commit(store, Durability.ASYNC);
            }
            return Claim.empty();
        }
        // The hooks and delivery rows before the stripes: they are held for the check and the commit only.
        ClaimReads before = ClaimReads.of(store, unique.values(), unread);
        return stripes.lockedAll(rowsByTenant.keySet(), () -> {
            // Unchanged since the rows were read: nothing removed a due row meanwhile (a claim, a
            // purge), so every row read is still stored, with the value read.
            boolean asRead = readMark == stripes.dueRemovals();
            try {
                return claimLocked(unique, batch, asRead, before);
            } finally {
                stripes.removedDue();
            }
        });
    }

    /** One entry per key: the caller's size and kind are not trusted unless the rows are as read since the mark. */
    private static Map<DueKey, DueRow> uniqueByKey(List<DueRow> rows) {
        Map<DueKey, DueRow> unique = new LinkedHashMap<>();
        rows.forEach(r -> unique.putIfAbsent(new DueKey(r.ord(), r.at(), r.seq(), r.sink()), r));
        return unique;
    }

    /**
     * Moves the still-due rows among {@code unique} to inflight in one unsynced batch; the caller
     * holds their tenants' stripes. A row whose hook (or delivery row) is stored but does not decode
     * is moved aside into the quarantine in the same batch instead: never claimed, never deleted,
     * and it no longer blocks its tenant (the claim of every other row goes ahead).
     *
     * <p>Why unsynced is enough: a claim only says "being sent". Lost in a power failure, it leaves
     * its rows due (with their counters: the batch is whole or absent), and they are sent again,
     * which at-least-once allows. It rides the next synced commit of the store — the settle of its
     * own rows at the latest, since both backends make a synced commit durable together with every
     * commit before it — so a settled row's claim is never lost. A process that dies (kill -9)
     * loses nothing: the claim is in the OS page cache.
     *
     * <p>With {@code asRead} the rows are claimed as given (they were read since the last removal
     * of any due row, see {@link TenantStripes#dueRemovals()}), with the delivery rows of
     * {@code before}; without, each row is read again and claimed as stored, or skipped when it is
     * gone, and the delivery rows of those still due are read again too (see {@link ClaimReads}).
     * The hooks are {@code before}'s either way.
     */
    private Claim claimLocked(Map<DueKey, DueRow> unique, DeliveryBatch batch, boolean asRead, ClaimReads before) {
        List<DueRow> present = asRead ? new ArrayList<>(unique.values()) : readDue(unique.keySet());
        if (present.isEmpty()) {
            if (!batch.isEmpty()) {
                batch.commit(store, Durability.ASYNC);
            }
            return Claim.empty();
        }
        ClaimReads reads = asRead ? before : before.withRowsOf(store, present);
        long now = clock.millis();
        List<ClaimedDelivery> claimed = new ArrayList<>();
        List<InflightRow> orphans = new ArrayList<>();
        List<QuarantinedRow> quarantined = new ArrayList<>();
        for (DueRow due : present) {
            ClaimReads.HookRead hook = reads.hook(due);
            if (hook.undecodable()) {
                quarantined.add(Deliveries.quarantineOps(batch, due, QuarantinedRow.Reason.HOOK_UNDECODABLE, now));
                continue;
            }
            OptionalInt attempts = reads.attempts(due);
            if (attempts.isEmpty()) {
                quarantined.add(Deliveries.quarantineOps(batch, due, QuarantinedRow.Reason.DELIVERY_ROW_UNDECODABLE,
                        now));
                continue;
            }
            InflightRow inflight = Deliveries.claimOps(batch, due);
            if (hook.hook().isEmpty()) {
                orphans.add(inflight);
                continue;
            }
            HookEnvelope.ClaimedHook read = hook.hook().get();
            // A keyed hook's delivery with no place in its key's order (revived, expanded, released): out of order.
            boolean outOfOrder = read.hook().orderingKey().isPresent() && !due.ordered();
            claimed.add(new ClaimedDelivery(inflight, read.hook().tenant(), read.hook().id(), read.hook().sourceId(),
                    read.hook().headers(), read.payload(), read.receivedAt(), attempts.getAsInt() + 1,
                    read.hook().traceContext().orElse(null), outOfOrder));
        }
        batch.commit(store, Durability.ASYNC);
        return new Claim(claimed, orphans, quarantined);
    }

    /** The due rows of {@code keys} as stored now, in order; a key no longer stored is left out. */
    private List<DueRow> readDue(Collection<DueKey> dueKeys) {
        List<byte[]> keys = dueKeys.stream().map(DueKey::encode).toList();
        List<Optional<byte[]>> values = store.multiGet(ColumnFamilies.INDEX, keys);
        List<DueRow> present = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (values.get(i).isPresent()) {
                present.add(DueRows.decode(keys.get(i), values.get(i).get()));
            }
        }
        return present;
    }

    @Override
    public Optional<Hook> storedHook(long seq) {
        Optional<byte[]> raw = store.get(ColumnFamilies.HOOKS, new HookKey(seq).encode());
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(HookEnvelope.decode(raw.get()).hook());
        } catch (StoreCorruptionException e) {
            // Stored but undecodable: its rows are quarantined when claimed; nothing to hand out.
            return Optional.empty();
        }
    }

    @Override
    public void settle(List<Settlement> settlements) {
        settle(settlements, List.of(), List.of());
    }

    @Override
    public List<EndpointRow> settle(List<Settlement> settlements, List<AttemptRecord> attempts,
            List<EndpointRow> endpoints) {
        SettleWrite write = settleWritten(settlements, attempts, endpoints);
        if (write.unsynced()) {
            syncSettled();
        }
        return write.endpoints();
    }

    /**
     * Hardens every settle written before it (and every other commit before it, the claims it
     * settles among them) before the caller learns of the settles: a crash before it loses their
     * batches, and the rows come back inflight, due again at the next open, as they would have.
     * An empty synced commit: on RocksDB a WAL sync outside the write thread.
     */
    @Override
    public void syncSettled() {
        store.commit(new WriteBatch(), Durability.SYNC);
    }

    /**
     * The settle's batch, written unsynced under its tenants' stripes: the tenants' claims do not
     * wait for the fsync, and on RocksDB an unsynced claim does not queue behind it in the write
     * group. The caller syncs ({@link #syncSettled()}) outside them, and may write its next batch
     * meanwhile.
     */
    @Override
    public SettleWrite settleWritten(List<Settlement> settlements, List<AttemptRecord> attempts,
            List<EndpointRow> endpoints) {
        if (settlements.isEmpty()) {
            return new SettleWrite(List.of(), false);
        }
        Set<Long> ords = new HashSet<>();
        settlements.forEach(s -> ords.add(Ordinals.requireTenant(s.row().ord())));
        List<EndpointRow> written = new ArrayList<>();
        // The attempt history's slot reads and encoding before the stripes, which a tick's claim of
        // the same tenants waits for; the entries of the rows settled join the batch under them.
        AttemptHistory.Prepared historyOps = history.prepare(attempts);
        boolean wrote = stripes.lockedAll(ords, () -> {
            List<byte[]> keys = settlements.stream()
                    .map(s -> new InflightKey(s.row().ord(), s.row().seq(), s.row().sink()).encode()).toList();
            List<Optional<byte[]>> values = store.multiGet(ColumnFamilies.INDEX, keys);
            // Held until the batch is written: its retries are due at or after it (DueStamps).
            try (DueStamps.Held held = stamps.hold()) {
                long now = held.millis();
                DeliveryBatch batch = new DeliveryBatch();
                Set<InflightKey> settled = new HashSet<>();
                Set<InflightKey> removed = new HashSet<>();
                List<InflightRow> delivered = new ArrayList<>();
                for (int i = 0; i < settlements.size(); i++) {
                    Settlement s = settlements.get(i);
                    InflightKey key = InflightKey.decode(keys.get(i));
                    if (values.get(i).isEmpty() || !settled.add(key)) {
                        LOG.debug("settlement of a row no longer inflight skipped: {}", s.row());
                        continue;
                    }
                    InflightRow row = new InflightRow(key.ord(), key.seq(), key.sink(),
                            InflightKey.decodeValue(values.get(i).get()), InflightKey.decodeGroup(values.get(i).get()));
                    if (s instanceof Settlement.Delivered) {
                        Deliveries.deliveredOps(batch, row);
                        removed.add(key);
                        delivered.add(row);
                    } else if (s instanceof Settlement.Orphan) {
                        Deliveries.orphanDropOps(batch, row);
                        removed.add(key);
                    } else if (s instanceof Settlement.Retry r) {
                        Deliveries.retryOps(batch, row,
                                new DeliveryRow(row.size(), r.delivery().attempt(), now, r.error()),
                                held.atLeast(r.nextAt()));
                    } else if (s instanceof Settlement.Dead d) {
                        Deliveries.deadOps(batch, row,
                                new DeliveryRow(row.size(), d.delivery().attempt(), now, d.reason()),
                                now, d.delivery().sourceId(), d.delivery().hookId());
                    }
                }
                // A delivered hook nothing else needs goes in this batch; any other gets a cleared marker.
                HookRelease.appendTo(store, batch, delivered, removed);
                // The history of attempts whose rows this batch settles rides in the same batch.
                historyOps.appendTo(batch, settled, removed);
                Set<Long> applied = new HashSet<>();
                settled.forEach(k -> applied.add(k.ord()));
                for (EndpointRow endpoint : endpoints) {
                    if (applied.contains(endpoint.ord())) {
                        Deliveries.endpointOps(batch, endpoint);
                        written.add(endpoint);
                    }
                }
                if (batch.isEmpty()) {
                    return false;
                }
                // Unsynced under the stripes; the caller syncs outside them (see above).
                batch.commit(store, Durability.ASYNC);
                return true;
            }
        });
        return new SettleWrite(written, wrote);
    }

    @Override
    public int revive(long ord, List<DeadRow> rows) {
        Ordinals.requireTenant(ord);
        List<DeadRow> unique = List.copyOf(new LinkedHashSet<>(rows));
        for (DeadRow row : unique) {
            if (row.ord() != ord) {
                throw new IllegalArgumentException("dead row of tenant " + row.ord() + " in a revival for tenant "
                        + ord);
            }
        }
        if (unique.isEmpty()) {
            return 0;
        }
        return stripes.locked(ord, () -> {
            List<Optional<byte[]>> present = store.multiGet(ColumnFamilies.INDEX, unique.stream()
                    .map(d -> new DeadByTenantKey(d.ord(), d.at(), d.seq(), d.sink()).encode()).toList());
            List<Optional<byte[]>> deliveryRows = store.multiGet(ColumnFamilies.DELIVERIES,
                    unique.stream().map(d -> new DeliveryKey(d.seq(), d.sink()).encode()).toList());
            // Held until the batch is committed: its rows are due at it (DueStamps).
            try (DueStamps.Held held = stamps.hold()) {
                long now = held.millis();
                DeliveryBatch batch = new DeliveryBatch();
                int revived = 0;
                for (int i = 0; i < unique.size(); i++) {
                    if (present.get(i).isEmpty()) {
                        continue;
                    }
                    if (deliveryRows.get(i).isEmpty()) {
                        throw new StoreCorruptionException("dead row " + unique.get(i) + " has no delivery row");
                    }
                    Deliveries.reviveOps(batch, unique.get(i), DeliveryRow.decode(deliveryRows.get(i).get()), now);
                    revived++;
                }
                if (revived > 0) {
                    batch.commit(store, Durability.SYNC);
                }
                return revived;
            }
        });
    }

    @Override
    public int recoverInflight() {
        // Up to and including the hi sentinel, as whole-family folds read: a scan that ends without
        // meeting it ended early (a binding may report corruption as a clean end) and is refused.
        KeySpan family = new KeySpan(InflightKey.FAMILY.between().from(), InflightKey.FAMILY.withSentinels().to());
        byte[] hi = InflightKey.FAMILY.hi();
        int total = 0;
        byte[] after = null;
        while (true) {
            List<InflightRow> chunk = new ArrayList<>();
            byte[] last = null;
            boolean end = false;
            try (Scan scan = store.scan(ColumnFamilies.INDEX,
                    after == null ? Ranges.of(family) : Ranges.after(after, family))) {
                while (chunk.size() < RECOVER_CHUNK) {
                    if (!scan.hasNext()) {
                        throw new StoreCorruptionException("the inflight family ended without its hi sentinel"
                                + " (a scan ended early, or the sentinel was lost)");
                    }
                    KeyValue kv = scan.next();
                    if (Arrays.equals(kv.key(), hi)) {
                        end = true;
                        break;
                    }
                    InflightKey k = InflightKey.decode(kv.key());
                    chunk.add(new InflightRow(k.ord(), k.seq(), k.sink(), InflightKey.decodeValue(kv.value()),
                            InflightKey.decodeGroup(kv.value())));
                    last = kv.key();
                }
            }
            if (chunk.isEmpty()) {
                return total;
            }
            // Held until the batch is committed: its rows are due at it (DueStamps).
            try (DueStamps.Held held = stamps.hold()) {
                long now = held.millis();
                DeliveryBatch batch = new DeliveryBatch();
                chunk.forEach(row -> {
                    Deliveries.recoverInflightOps(batch, row, now);
                    // Due again as a first attempt with its attempts kept: its claim reads its delivery row.
                    unread.recovered(row.seq());
                });
                batch.commit(store, Durability.SYNC);
            }
            total += chunk.size();
            if (end) {
                return total;
            }
            after = last;
        }
    }

    @Override
    public void deleteMarkers(long ord, Collection<Long> buckets) {
        deleteMarkers(Map.of(ord, buckets));
    }

    @Override
    public void deleteMarkers(Map<Long, ? extends Collection<Long>> bucketsByTenant) {
        DeliveryBatch batch = new DeliveryBatch();
        deleteMarkerOps(batch, bucketsByTenant);
        if (!batch.isEmpty()) {
            batch.commit(store, Durability.ASYNC);
        }
    }

    /**
     * Adds the deletes of each tenant's markers of its buckets to {@code batch}; never a bucket of the current second
     * or later.
     */
    private void deleteMarkerOps(DeliveryBatch batch, Map<Long, ? extends Collection<Long>> bucketsByTenant) {
        long current = ActiveKey.bucketOf(clock.millis());
        bucketsByTenant.forEach((ord, buckets) -> {
            Ordinals.requireTenant(ord);
            for (long bucket : new LinkedHashSet<>(buckets)) {
                if (bucket < current) {
                    Deliveries.deleteMarkerOps(batch, ord, bucket);
                }
            }
        });
    }

    @Override
    public void restoreMarker(long ord, long bucket) {
        DeliveryBatch batch = new DeliveryBatch();
        Deliveries.restoreMarkerOps(batch, Ordinals.requireTenant(ord), bucket);
        batch.commit(store, Durability.SYNC);
    }

    private static void requireLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1: " + limit);
        }
    }
}
