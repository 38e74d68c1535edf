package io.ankusa.queue.deliveries;

import io.ankusa.api.AttemptCursor;
import io.ankusa.api.AttemptErrorClass;
import io.ankusa.api.AttemptPage;
import io.ankusa.api.DeliveryAttempt;
import io.ankusa.api.events.AttemptOutcome;
import io.ankusa.keys.AttemptKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.Ordinals;
import io.ankusa.queue.ledger.AttemptRecord;
import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The attempt history ({@link AttemptKey ?H}): what each settled attempt was, readable per tenant
 * and per hook, newest first, each one range scan.
 *
 * <p><b>Written in the settle batch.</b> {@link #prepare} reads and encodes the entries of a
 * settle's attempts before the settle takes its stripes, and {@link Prepared#appendTo} adds those
 * of the rows it settles to its batch under them, so a settled attempt and its history entry
 * commit together or not at all. Reading the slots before the stripes is exact: a delivery's slots
 * are written only by the settles of its own attempts, one after the other (its next attempt is
 * claimed only once this settle committed), and a slot or entry deleted meanwhile by the retention
 * or a purge is deleted again, which changes nothing.
 *
 * <p><b>Bounded per delivery.</b> A delivery's attempts take slots {@code (attempt - 1) mod K} in
 * turn ({@code K} = {@code attempts.per-delivery}); the slot key names the entry that holds it,
 * and the writer that takes a slot deletes that entry in the same batch (one multi-get of the
 * batch's slots). After a replay, numbering starts at 1 again and so evicts the oldest slots first
 * too. Lowering {@code K} leaves entries in slots past the new bound until the retention removes them.
 *
 * <p><b>No slot for the last attempt.</b> An attempt whose settle removes its delivery row for good
 * (delivered, or dropped as an orphan) is the delivery's last: nothing will take a slot of it
 * again, so it writes no slot key. It still evicts the entry in its slot, and then deletes that
 * slot key rather than rewriting it, so no slot key outlives the entries it names; the retention
 * and erasure delete its entry without one. Most deliveries succeed at their first attempt: their
 * history is two puts in the settle batch, not three.
 *
 * <p><b>Retention.</b> {@link #prune} walks the tenants that have history in ordinal order from an
 * in-memory cursor (one seek finds the next such tenant, so tenants without history cost nothing),
 * and for each deletes its entries older than the cutoff from the oldest end of its by-tenant range,
 * under the tenant's stripe, in unsynced batches; a call does bounded work and the walk resumes
 * where the last call stopped. The node's byte bound ({@code attempts.max-bytes}) raises that cutoff
 * for every tenant at once, pass by pass, so the oldest entries go first (see {@link #prune(long,
 * long, long, int)}).
 *
 * <p><b>Counted.</b> Every batch that puts or deletes history keys carries the change in their key
 * and value bytes as a {@link CounterField#HISTORY_BYTES} delta of the tenant (and so of the node,
 * ordinal 0), a blind merge like every counter, so the history's size is one counter read. A
 * settle knows what it adds; what it replaces or evicts it knows from the slot and evicted-entry
 * reads {@link #prepare} made outside the stripes, which stay exact unless history keys were
 * removed since ({@link TenantStripes#historyRemovals()}): then {@link Prepared#appendTo} reads
 * again under the stripes. The retention and erasure read what they delete, under the stripe.
 *
 * <p>Entry value (both the by-tenant and by-hook key), version 2:
 * {@code | version u8 = 2 | outcome u8 | status u16 (0 none) | latency_us u64 | slot u16 |
 * error_class str | hook_id str | reason str | flags u8 |}, {@code str} being {@code u32 length, UTF-8};
 * flags bit 0: the attempt was made out of its ordering key's order; other bits 0. Version 1 is the
 * same without {@code flags}: an entry written before the flags existed reads with none set.
 */
public final class AttemptHistory {

    /** Longest reason kept, in UTF-8 bytes. */
    public static final int REASON_MAX_BYTES = 200;

    /** Most tenants one {@link #prune} call visits. */
    static final int PRUNE_TENANTS_PER_CALL = 256;

    private static final int VERSION = 2;
    /** The first version, without the flags byte. */
    private static final int VERSION_WITHOUT_FLAGS = 1;
    /** Flags bit 0: the attempt was made out of its ordering key's order. */
    private static final int OUT_OF_ORDER = 1;

    private final Store store;
    private final TenantStripes stripes;
    private final int perDelivery;
    /** The next ordinal {@link #prune} visits (guarded by this). */
    private long pruneFrom = Ordinals.FIRST;
    /** The byte bound's cutoff for the pass in progress, epoch ms; {@link Long#MIN_VALUE}: none (guarded by this). */
    private long byteCutoff = Long.MIN_VALUE;
    /** The oldest entry kept by the pass in progress, epoch ms (guarded by this). */
    private long passOldestKept = Long.MAX_VALUE;

    /**
     * The history over {@code store}.
     *
     * @param store       the store
     * @param stripes     the tenants' stripes (retention deletes under them)
     * @param perDelivery most attempts kept per delivery; 0 records nothing
     */
    public AttemptHistory(Store store, TenantStripes stripes, int perDelivery) {
        this.store = Objects.requireNonNull(store, "store");
        this.stripes = Objects.requireNonNull(stripes, "stripes");
        if (perDelivery < 0 || perDelivery > 0xFFFF) {
            throw new IllegalArgumentException("attempts per delivery must be in 0..65535: " + perDelivery);
        }
        this.perDelivery = perDelivery;
    }

    /** {@return most attempts kept per delivery (0: none recorded)} */
    public int perDelivery() {
        return perDelivery;
    }

    /**
     * The history entries of {@code records}, each evicting the entry that held its slot (one
     * multi-get of their slots, and one of the evicted entries when a slot is held), ready to be
     * added to the batch that settles their rows; read and encoded before the settle takes its
     * stripes (see the class comment).
     */
    Prepared prepare(List<AttemptRecord> records) {
        if (perDelivery == 0 || records.isEmpty()) {
            return Prepared.NONE;
        }
        // Read before the store reads: a removal that committed after this count is seen by appendTo.
        long removalsSeen = stripes.historyRemovals();
        List<byte[]> slotKeys = new ArrayList<>(records.size());
        for (AttemptRecord r : records) {
            slotKeys.add(AttemptKey.slotKey(r.row().ord(), r.row().seq(), r.row().sink(), slotOf(r.attempt())));
        }
        List<Optional<byte[]>> held = store.multiGet(ColumnFamilies.INDEX, slotKeys);
        Map<ByteBuffer, Integer> stored = new HashMap<>();
        Map<ByteBuffer, byte[]> writtenHere = new HashMap<>();
        List<EntryOps> entries = new ArrayList<>(records.size());
        List<byte[]> evictedKeys = new ArrayList<>();
        List<byte[]> evictedHookKeys = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            AttemptRecord r = records.get(i);
            byte[] slotKey = slotKeys.get(i);
            byte[] hookId = r.hookId().getBytes(StandardCharsets.UTF_8);
            ByteBuffer slotName = ByteBuffer.wrap(slotKey);
            boolean fromStore = !writtenHere.containsKey(slotName);
            byte[] previous = fromStore ? held.get(i).orElse(null) : writtenHere.get(slotName);
            AttemptKey key = new AttemptKey(r.row().ord(), r.at(), r.row().seq(), r.row().sink(), r.attempt());
            List<byte[]> deletes = new ArrayList<>(2);
            if (previous != null) {
                AttemptKey evicted = AttemptKey.ofSlotValue(key.ord(), key.seq(), key.sink(), previous);
                if (fromStore) {
                    stored.put(slotName, slotKey.length + previous.length);
                    evictedKeys.add(evicted.encodeByTenant());
                    evictedHookKeys.add(AttemptKey.fitsHookKey(hookId) ? evicted.encodeByHook(hookId) : null);
                }
                if (!evicted.equals(key)) {
                    deletes.add(evicted.encodeByTenant());
                    if (AttemptKey.fitsHookKey(hookId)) {
                        deletes.add(evicted.encodeByHook(hookId));
                    }
                }
            }
            byte[] value = encode(r, slotOf(r.attempt()));
            List<byte[]> puts = new ArrayList<>(6);
            puts.add(key.encodeByTenant());
            puts.add(value);
            if (AttemptKey.fitsHookKey(hookId)) {
                puts.add(key.encodeByHook(hookId));
                puts.add(value);
            }
            byte[] slotValue = key.slotValue();
            writtenHere.put(slotName, slotValue);
            entries.add(new EntryOps(new InflightKey(r.row().ord(), r.row().seq(), r.row().sink()), deletes, puts,
                    slotKey, slotValue, previous != null));
        }
        if (!evictedKeys.isEmpty()) {
            // Only a delivery past its K-th attempt evicts: the sizes its deletes take off the counter.
            List<Optional<byte[]>> evictedValues = store.multiGet(ColumnFamilies.INDEX, evictedKeys);
            for (int i = 0; i < evictedKeys.size(); i++) {
                if (evictedValues.get(i).isPresent()) {
                    int valueLength = evictedValues.get(i).get().length;
                    stored.put(ByteBuffer.wrap(evictedKeys.get(i)), evictedKeys.get(i).length + valueLength);
                    byte[] hookKey = evictedHookKeys.get(i);
                    if (hookKey != null) {
                        stored.put(ByteBuffer.wrap(hookKey), hookKey.length + valueLength);
                    }
                }
            }
        }
        return new Prepared(this, records, removalsSeen, entries, stored);
    }

    /**
     * One record's ops: the evicted entry's deletes, its puts (key, value, key, value, …), and its
     * slot: written, or, when the settle removes the row for good, deleted if it was held.
     */
    private record EntryOps(InflightKey row, List<byte[]> deletes, List<byte[]> puts, byte[] slotKey, byte[] slotValue,
            boolean slotHeld) {
    }

    /**
     * History entries read and encoded by {@link #prepare}, to be added to a settle's batch, with
     * the sizes of the keys they replace or delete as read ({@code stored}), from which the batch's
     * {@link CounterField#HISTORY_BYTES} deltas follow.
     */
    static final class Prepared {

        static final Prepared NONE = new Prepared(null, List.of(), 0, List.of(), Map.of());

        private final AttemptHistory history;
        private final List<AttemptRecord> records;
        private final long removalsSeen;
        private final List<EntryOps> entries;
        private final Map<ByteBuffer, Integer> stored;

        private Prepared(AttemptHistory history, List<AttemptRecord> records, long removalsSeen,
                List<EntryOps> entries, Map<ByteBuffer, Integer> stored) {
            this.history = history;
            this.records = records;
            this.removalsSeen = removalsSeen;
            this.entries = entries;
            this.stored = stored;
        }

        /**
         * Adds to {@code batch} the entries of the attempts whose rows are in {@code settled}, in
         * the order prepared, and their bytes to each tenant's {@code history_bytes}; the caller
         * holds their tenants' stripes. Those whose rows are also in {@code removed} (the batch
         * deletes the delivery row: nothing attempts it again) take no slot. When history keys were
         * removed since {@link #prepare} read (the retention or an erasure, under some tenant's
         * stripe), the reads are made again first, under the stripes held: the retention may have
         * deleted an entry or slot this settle would otherwise count as stored.
         */
        void appendTo(DeliveryBatch batch, Set<InflightKey> settled, Set<InflightKey> removed) {
            if (entries.isEmpty()) {
                return;
            }
            if (history.stripes.historyRemovals() != removalsSeen) {
                history.prepare(records).write(batch, settled, removed);
                return;
            }
            write(batch, settled, removed);
        }

        private void write(DeliveryBatch batch, Set<InflightKey> settled, Set<InflightKey> removed) {
            Map<ByteBuffer, Integer> present = new HashMap<>(stored);
            for (EntryOps e : entries) {
                if (!settled.contains(e.row())) {
                    continue;
                }
                long delta = 0;
                for (byte[] key : e.deletes()) {
                    batch.deleteIndex(key);
                    Integer size = present.remove(ByteBuffer.wrap(key));
                    delta -= size == null ? 0 : size;
                }
                for (int i = 0; i < e.puts().size(); i += 2) {
                    byte[] key = e.puts().get(i);
                    byte[] value = e.puts().get(i + 1);
                    batch.putIndex(key, value);
                    delta += put(present, key, value);
                }
                if (!removed.contains(e.row())) {
                    batch.putIndex(e.slotKey(), e.slotValue());
                    delta += put(present, e.slotKey(), e.slotValue());
                } else if (e.slotHeld()) {
                    batch.deleteIndex(e.slotKey());
                    Integer size = present.remove(ByteBuffer.wrap(e.slotKey()));
                    delta -= size == null ? 0 : size;
                }
                if (delta != 0) {
                    batch.count(e.row().ord(), CounterField.HISTORY_BYTES, delta);
                }
            }
        }

        /** The change in stored bytes when {@code key} is put with {@code value}. */
        private static long put(Map<ByteBuffer, Integer> present, byte[] key, byte[] value) {
            Integer before = present.put(ByteBuffer.wrap(key), key.length + value.length);
            return key.length + value.length - (before == null ? 0 : before);
        }
    }

    private int slotOf(int attempt) {
        return Math.floorMod(attempt - 1, perDelivery);
    }

    /**
     * A page of tenant {@code ord}'s attempts ({@code hookId} empty: every hook), newest first.
     *
     * @param ord    the tenant's ordinal
     * @param tenant the tenant's id (for the results)
     * @param hookId one hook's id, or empty for the whole tenant
     * @param after  where the previous page ended
     * @param limit  most attempts
     * @return the page
     */
    public AttemptPage page(long ord, String tenant, Optional<String> hookId, Optional<AttemptCursor> after,
            int limit) {
        Ordinals.requireTenant(ord);
        KeySpan span;
        byte[] hookBytes = null;
        if (hookId.isPresent()) {
            hookBytes = hookId.get().getBytes(StandardCharsets.UTF_8);
            if (!AttemptKey.fitsHookKey(hookBytes)) {
                return new AttemptPage(List.of(), false);
            }
            span = AttemptKey.hookRange(ord, hookBytes);
        } else {
            span = AttemptKey.tenantRange(ord);
        }
        KeyRange range = Ranges.of(span);
        if (after.isPresent()) {
            AttemptCursor c = after.get();
            AttemptKey from = new AttemptKey(ord, c.at(), c.seq(), c.sink(), c.attempt());
            range = Ranges.after(hookBytes == null ? from.encodeByTenant() : from.encodeByHook(hookBytes), span);
        }
        List<DeliveryAttempt> out = new ArrayList<>();
        boolean more = false;
        try (Scan scan = store.scan(ColumnFamilies.INDEX, range)) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                if (out.size() == limit) {
                    more = true;
                    break;
                }
                AttemptKey key = hookBytes == null ? AttemptKey.decodeByTenant(kv.key())
                        : AttemptKey.decodeByHook(kv.key());
                out.add(decode(tenant, key, kv.value()));
            }
        }
        return new AttemptPage(out, more);
    }

    /**
     * Deletes history entries that started before {@code cutoff}, at most about {@code maxEntries}
     * of them, visiting at most {@value #PRUNE_TENANTS_PER_CALL} tenants with history; resumes the
     * walk where the last call stopped. The retention alone: {@link #prune(long, long, long, int)}
     * with no byte bound.
     *
     * @param cutoff     entries that started before this time go, epoch milliseconds
     * @param maxEntries most entries to delete in this call
     * @return how many entries were deleted
     */
    public int prune(long cutoff, int maxEntries) {
        return prune(cutoff, Long.MAX_VALUE, cutoff, maxEntries);
    }

    /**
     * Deletes history entries that started before the retention's {@code cutoff} or before the
     * byte bound's cutoff, at most about {@code maxEntries} of them, visiting at most
     * {@value #PRUNE_TENANTS_PER_CALL} tenants with history; resumes the walk where the last call
     * stopped.
     *
     * <p><b>The byte bound.</b> The history is ordered by time per tenant only, so the bound is
     * kept by raising the time cutoff, the same for every tenant: a pass (one walk over the tenants
     * with history) learns the oldest entry it kept, and at its end, when the node's
     * {@code history_bytes} is over {@code maxBytes}, the next pass's cutoff moves from that oldest
     * entry toward {@code now} by the share of the history to remove to get down to seven eighths
     * of the bound, as if the history were spread evenly over time. A history that is not gets
     * there in a few passes: each one removes at least the oldest entry, and a pass that removed too
     * little is followed by one with a higher cutoff. What a pass removes is older than what it
     * keeps, so the oldest entries go first; between passes the history grows by what the node
     * writes meanwhile.
     *
     * @param cutoff     entries that started before this time go (the retention), epoch milliseconds
     * @param maxBytes   the node's bound on {@code history_bytes} ({@link Long#MAX_VALUE}: none)
     * @param now        the queue clock's now, epoch milliseconds
     * @param maxEntries most entries to delete in this call
     * @return how many entries were deleted
     */
    public synchronized int prune(long cutoff, long maxBytes, long now, int maxEntries) {
        int removed = 0;
        for (int visited = 0; removed < maxEntries && visited < PRUNE_TENANTS_PER_CALL; visited++) {
            OptionalLong next = nextTenantFrom(pruneFrom);
            if (next.isEmpty()) {
                pruneFrom = Ordinals.FIRST;
                endPass(maxBytes, now);
                break;
            }
            long ord = next.getAsLong();
            int budget = maxEntries - removed;
            long passCutoff = Math.max(cutoff, byteCutoff);
            Pruned p = stripes.locked(ord, () -> pruneTenant(ord, passCutoff, budget));
            removed += p.entries();
            if (p.entries() < budget) {
                pruneFrom = ord + 1;
                passOldestKept = Math.min(passOldestKept, p.oldestKept());
            }
        }
        return removed;
    }

    /** The cutoff the byte bound asks of the next pass, from what this one kept (see {@link #prune}). */
    private void endPass(long maxBytes, long now) {
        long oldest = passOldestKept;
        passOldestKept = Long.MAX_VALUE;
        long bytes = historyBytes();
        if (maxBytes == Long.MAX_VALUE || bytes <= maxBytes || oldest >= now) {
            byteCutoff = Long.MIN_VALUE;
            return;
        }
        long target = maxBytes - maxBytes / 8;
        double share = (double) (bytes - target) / bytes;
        long step = Math.max(1, (long) Math.ceil((now - oldest) * share));
        byteCutoff = Math.min(now, oldest + step);
    }

    /** {@return the node's history bytes: the {@code history_bytes} counter of ordinal 0} */
    public long historyBytes() {
        return Counters.historyBytes(store, Ordinals.AGGREGATE);
    }

    /** The cutoff the byte bound sets for the pass in progress, epoch ms ({@link Long#MIN_VALUE}: none). */
    synchronized long byteCutoff() {
        return byteCutoff;
    }

    private OptionalLong nextTenantFrom(long ord) {
        if (ord > Ordinals.MAX) {
            return OptionalLong.empty();
        }
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(AttemptKey.tenantsAfter(ord - 1)))) {
            return scan.hasNext() ? OptionalLong.of(AttemptKey.ordOf(scan.next().key())) : OptionalLong.empty();
        }
    }

    /**
     * What one tenant's pruning did: entries removed, and the start of the oldest entry it kept
     * ({@link Long#MAX_VALUE}: none kept, or the budget ran out first).
     */
    private record Pruned(int entries, long oldestKept) {
    }

    private Pruned pruneTenant(long ord, long cutoff, int budget) {
        List<KeyValue> old = new ArrayList<>();
        long oldestKept = Long.MAX_VALUE;
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(AttemptKey.tenantRange(ord)), Direction.REVERSE)) {
            while (old.size() < budget && scan.hasNext()) {
                KeyValue kv = scan.next();
                long at = AttemptKey.decodeByTenant(kv.key()).at();
                if (at >= cutoff) {
                    oldestKept = at;
                    break;
                }
                old.add(kv);
            }
        }
        if (old.isEmpty()) {
            return new Pruned(0, oldestKept);
        }
        List<AttemptKey> keys = new ArrayList<>(old.size());
        List<Entry> entries = new ArrayList<>(old.size());
        List<byte[]> slotKeys = new ArrayList<>(old.size());
        for (KeyValue kv : old) {
            AttemptKey key = AttemptKey.decodeByTenant(kv.key());
            Entry entry = Entry.decode(kv.value());
            keys.add(key);
            entries.add(entry);
            slotKeys.add(AttemptKey.slotKey(ord, key.seq(), key.sink(), entry.slot()));
        }
        List<Optional<byte[]>> slots = store.multiGet(ColumnFamilies.INDEX, slotKeys);
        DeliveryBatch batch = new DeliveryBatch();
        long bytes = 0;
        for (int i = 0; i < keys.size(); i++) {
            AttemptKey key = keys.get(i);
            int valueLength = old.get(i).value().length;
            byte[] byTenant = key.encodeByTenant();
            batch.deleteIndex(byTenant);
            bytes += byTenant.length + valueLength;
            byte[] hookId = entries.get(i).hookId().getBytes(StandardCharsets.UTF_8);
            if (AttemptKey.fitsHookKey(hookId)) {
                byte[] byHook = key.encodeByHook(hookId);
                batch.deleteIndex(byHook);
                bytes += byHook.length + valueLength;
            }
            if (slots.get(i).isPresent() && Arrays.equals(slots.get(i).get(), key.slotValue())) {
                batch.deleteIndex(slotKeys.get(i));
                bytes += slotKeys.get(i).length + slots.get(i).get().length;
            }
        }
        batch.count(ord, CounterField.HISTORY_BYTES, -bytes);
        try {
            batch.commit(store, Durability.ASYNC);
        } finally {
            // Under the stripe, after the commit (or its failure): settles that read before it read again.
            stripes.removedHistory();
        }
        return new Pruned(keys.size(), keys.size() < budget ? oldestKept : Long.MAX_VALUE);
    }

    /**
     * Counts every history key's bytes into the {@code history_bytes} counters when the store's
     * counters do not cover them yet (no {@code m:history_counted}): one scan of the {@code ?H}
     * family, then each tenant's sum and the node's merged and the marker put, in one synced batch.
     * Run by the open of a store written before the counter existed, before anything writes
     * history; a store created with the counter has the marker from the start and is not scanned.
     *
     * @param store the store, opened and at the current format, not yet written by the queue
     * @return the history bytes counted, or -1 when the counters already covered them
     */
    public static long countIfUncounted(Store store) {
        if (store.get(ColumnFamilies.DEFAULT, MetaKeys.HISTORY_COUNTED).isPresent()) {
            return -1;
        }
        Map<Long, Long> byTenant = new TreeMap<>();
        KeySpan family = AttemptKey.FAMILY.between();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.of(family.from(), family.to()))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                byTenant.merge(AttemptKey.ordOf(kv.key()), (long) kv.key().length + kv.value().length, Long::sum);
            }
        }
        DeliveryBatch batch = new DeliveryBatch();
        long total = 0;
        for (Map.Entry<Long, Long> e : byTenant.entrySet()) {
            batch.count(e.getKey(), CounterField.HISTORY_BYTES, e.getValue());
            total += e.getValue();
        }
        batch.put(ColumnFamilies.DEFAULT, MetaKeys.HISTORY_COUNTED, MetaKeys.u32Value(1));
        batch.commit(store, Durability.SYNC);
        return total;
    }

    /** The range of every key of tenant {@code ord}'s history, for erasure. */
    static KeySpan tenantAll(long ord) {
        return AttemptKey.tenantAll(ord);
    }

    // --- the entry value ---

    /** A decoded entry value. */
    private record Entry(AttemptOutcome outcome, int status, long latencyMicros, int slot, AttemptErrorClass errorClass,
            String hookId, String reason, boolean outOfOrder) {

        static Entry decode(byte[] value) {
            Wire.In in = new Wire.In("attempt history entry", value);
            int version = in.u8();
            if (version != VERSION && version != VERSION_WITHOUT_FLAGS) {
                throw in.corrupt("unknown version " + version);
            }
            AttemptOutcome outcome = outcomeOf(in, in.u8());
            int status = in.u16();
            long latency = in.u64();
            int slot = in.u16();
            String code = in.string();
            String hookId = in.string();
            String reason = in.string();
            int flags = version == VERSION_WITHOUT_FLAGS ? 0 : in.u8();
            if ((flags & ~OUT_OF_ORDER) != 0) {
                throw in.corrupt("unknown flags " + flags);
            }
            in.end();
            if (latency < 0) {
                throw in.corrupt("negative latency");
            }
            return new Entry(outcome, status, latency, slot,
                    AttemptErrorClass.ofCode(code).orElse(AttemptErrorClass.OTHER),
                    hookId, reason, (flags & OUT_OF_ORDER) != 0);
        }
    }

    static byte[] encode(AttemptRecord r, int slot) {
        String reason = shortened(r.reason());
        return new Wire.Out(48 + r.hookId().length() + reason.length())
                .u8(VERSION).u8(outcomeCode(r.outcome())).u16(r.status().orElse(0)).u64(r.latencyMicros()).u16(slot)
                .string(r.errorClass().code()).string(wellFormed(r.hookId())).string(reason)
                .u8(r.outOfOrder() ? OUT_OF_ORDER : 0).toByteArray();
    }

    /** The attempt an entry value of {@code key} says, for {@code tenant}. */
    static DeliveryAttempt decode(String tenant, AttemptKey key, byte[] value) {
        Entry e = Entry.decode(value);
        return new DeliveryAttempt(tenant, e.hookId(), key.seq(), key.sink(), key.attempt(),
                Instant.ofEpochMilli(key.at()),
                e.outcome(), e.status() == 0 ? OptionalInt.empty() : OptionalInt.of(e.status()),
                Duration.ofNanos(Math.multiplyExact(e.latencyMicros(), 1000L)), e.errorClass(), e.reason(),
                e.outOfOrder());
    }

    private static int outcomeCode(AttemptOutcome outcome) {
        return switch (outcome) {
            case DELIVERED -> 1;
            case RETRY -> 2;
            case DEAD -> 3;
            case ENDPOINT_GONE -> 4;
            case ENDPOINT_DISABLED -> 5;
        };
    }

    private static AttemptOutcome outcomeOf(Wire.In in, int code) {
        return switch (code) {
            case 1 -> AttemptOutcome.DELIVERED;
            case 2 -> AttemptOutcome.RETRY;
            case 3 -> AttemptOutcome.DEAD;
            case 4 -> AttemptOutcome.ENDPOINT_GONE;
            case 5 -> AttemptOutcome.ENDPOINT_DISABLED;
            default -> throw in.corrupt("unknown outcome " + code);
        };
    }

    /** {@code text} well-formed and cut to at most {@value #REASON_MAX_BYTES} UTF-8 bytes, at a code point. */
    static String shortened(String text) {
        String clean = wellFormed(text);
        StringBuilder out = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < clean.length(); ) {
            int cp = clean.codePointAt(i);
            int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + n > REASON_MAX_BYTES) {
                break;
            }
            out.appendCodePoint(cp);
            bytes += n;
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    /** {@code text} with each unpaired surrogate replaced by U+FFFD. */
    private static String wellFormed(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else {
                out.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return out.toString();
    }
}
