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
 * where the last call stopped.
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
     * multi-get of their slots), ready to be added to the batch that settles their rows; read and
     * encoded before the settle takes its stripes (see the class comment).
     */
    Prepared prepare(List<AttemptRecord> records) {
        if (perDelivery == 0 || records.isEmpty()) {
            return Prepared.NONE;
        }
        List<byte[]> slotKeys = new ArrayList<>(records.size());
        for (AttemptRecord r : records) {
            slotKeys.add(AttemptKey.slotKey(r.row().ord(), r.row().seq(), r.row().sink(), slotOf(r.attempt())));
        }
        List<Optional<byte[]>> held = store.multiGet(ColumnFamilies.INDEX, slotKeys);
        Map<ByteBuffer, byte[]> writtenHere = new HashMap<>();
        List<EntryOps> entries = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            AttemptRecord r = records.get(i);
            byte[] slotKey = slotKeys.get(i);
            byte[] hookId = r.hookId().getBytes(StandardCharsets.UTF_8);
            ByteBuffer slotName = ByteBuffer.wrap(slotKey);
            byte[] previous = writtenHere.containsKey(slotName) ? writtenHere.get(slotName) : held.get(i).orElse(null);
            AttemptKey key = new AttemptKey(r.row().ord(), r.at(), r.row().seq(), r.row().sink(), r.attempt());
            List<byte[]> deletes = new ArrayList<>(2);
            if (previous != null) {
                AttemptKey evicted = AttemptKey.ofSlotValue(key.ord(), key.seq(), key.sink(), previous);
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
        return new Prepared(entries);
    }

    /**
     * One record's ops: the evicted entry's deletes, its puts (key, value, key, value, …), and its
     * slot: written, or, when the settle removes the row for good, deleted if it was held.
     */
    private record EntryOps(InflightKey row, List<byte[]> deletes, List<byte[]> puts, byte[] slotKey, byte[] slotValue,
            boolean slotHeld) {
    }

    /** History entries read and encoded by {@link #prepare}, to be added to a settle's batch. */
    static final class Prepared {

        static final Prepared NONE = new Prepared(List.of());

        private final List<EntryOps> entries;

        private Prepared(List<EntryOps> entries) {
            this.entries = entries;
        }

        /**
         * Adds to {@code batch} the entries of the attempts whose rows are in {@code settled}, in
         * the order prepared; the caller holds their tenants' stripes. Those whose rows are also
         * in {@code removed} (the batch deletes the delivery row: nothing attempts it again) take
         * no slot.
         */
        void appendTo(DeliveryBatch batch, Set<InflightKey> settled, Set<InflightKey> removed) {
            for (EntryOps e : entries) {
                if (!settled.contains(e.row())) {
                    continue;
                }
                e.deletes().forEach(batch::deleteIndex);
                for (int i = 0; i < e.puts().size(); i += 2) {
                    batch.putIndex(e.puts().get(i), e.puts().get(i + 1));
                }
                if (!removed.contains(e.row())) {
                    batch.putIndex(e.slotKey(), e.slotValue());
                } else if (e.slotHeld()) {
                    batch.deleteIndex(e.slotKey());
                }
            }
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
     * walk where the last call stopped.
     *
     * @param cutoff     entries that started before this time go, epoch milliseconds
     * @param maxEntries most entries to delete in this call
     * @return how many entries were deleted
     */
    public synchronized int prune(long cutoff, int maxEntries) {
        int removed = 0;
        for (int visited = 0; removed < maxEntries && visited < PRUNE_TENANTS_PER_CALL; visited++) {
            OptionalLong next = nextTenantFrom(pruneFrom);
            if (next.isEmpty()) {
                pruneFrom = Ordinals.FIRST;
                break;
            }
            long ord = next.getAsLong();
            int budget = maxEntries - removed;
            int n = stripes.locked(ord, () -> pruneTenant(ord, cutoff, budget));
            removed += n;
            if (n < budget) {
                pruneFrom = ord + 1;
            }
        }
        return removed;
    }

    private OptionalLong nextTenantFrom(long ord) {
        if (ord > Ordinals.MAX) {
            return OptionalLong.empty();
        }
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(AttemptKey.tenantsAfter(ord - 1)))) {
            return scan.hasNext() ? OptionalLong.of(AttemptKey.ordOf(scan.next().key())) : OptionalLong.empty();
        }
    }

    private int pruneTenant(long ord, long cutoff, int budget) {
        List<KeyValue> old = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(AttemptKey.tenantRange(ord)), Direction.REVERSE)) {
            while (old.size() < budget && scan.hasNext()) {
                KeyValue kv = scan.next();
                if (AttemptKey.decodeByTenant(kv.key()).at() >= cutoff) {
                    break;
                }
                old.add(kv);
            }
        }
        if (old.isEmpty()) {
            return 0;
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
        for (int i = 0; i < keys.size(); i++) {
            AttemptKey key = keys.get(i);
            batch.deleteIndex(key.encodeByTenant());
            byte[] hookId = entries.get(i).hookId().getBytes(StandardCharsets.UTF_8);
            if (AttemptKey.fitsHookKey(hookId)) {
                batch.deleteIndex(key.encodeByHook(hookId));
            }
            if (slots.get(i).isPresent() && Arrays.equals(slots.get(i).get(), key.slotValue())) {
                batch.deleteIndex(slotKeys.get(i));
            }
        }
        batch.commit(store, Durability.ASYNC);
        return keys.size();
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
