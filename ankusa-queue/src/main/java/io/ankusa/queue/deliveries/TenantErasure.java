package io.ankusa.queue.deliveries;

import io.ankusa.keys.ActiveKey;
import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ClearedKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.CounterKey;
import io.ankusa.keys.DeadByTenantKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.EndpointKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.keys.OrderKey;
import io.ankusa.keys.Ordinals;
import io.ankusa.keys.QuarantineKey;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.queue.ledger.QuarantinedRow;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Erases one tenant (TEN-5): every row, index key, marker, obligation, dedupe key, hook and
 * counter of its ordinal, leaving {@link io.ankusa.keys.TenantByOrdKey ?t} as a tombstone (empty value) so
 * the ordinal is never
 * reused. Steps, each in synced chunks of {@value #CHUNK}:
 *
 * <ol>
 * <li>{@link Step#DUE due} rows, {@link Step#INFLIGHT inflight} rows and {@link Step#DEAD dead}
 *     rows (and, in the dead step, quarantined rows), from the tenant's own ranges, with the ops and counter deltas of
 *     purge (inflight rows as an orphan drop), each leaving a {@link io.ankusa.keys.ClearedKey ?c} marker (a
 *     quarantined row's hook, which may not decode, goes with its last row instead);</li>
 * <li>{@link Step#ARCHIVE archive obligations} and {@link Step#ACTIVE active markers}: these
 *     families are not keyed by tenant, so they are walked whole, chunk by chunk, from a cursor;</li>
 * <li>{@link Step#DEDUPE dedupe keys and their expiry keys}: erased by the {@link DedupeEraser} the
 *     queue supplies, which runs on the ingest writer's thread (only the writer writes
 *     {@link io.ankusa.keys.DedupeKey ?u}
 *     and {@link io.ankusa.keys.DedupeExpiryKey ?e}, which is what keeps the dedupe check and its sweep from
 *     racing);</li>
 * <li>{@link Step#HOOKS hooks}: every hook left without rows has a {@link io.ankusa.keys.ClearedKey ?c}
 * marker; the markers
 *     are walked and the tenant's hooks go with their markers;</li>
 * <li>{@link Step#FINISH the end}, one batch under the tenant's stripe: what its counters still
 *     hold is taken off the aggregate (merges), its six counter rows and
 *     {@link io.ankusa.keys.OrdByTenantKey ?n} row are deleted,
 *     {@link io.ankusa.keys.TenantByOrdKey ?t} becomes a tombstone, the tenant's attempt history
 *     ({@link io.ankusa.keys.AttemptKey ?H}) and endpoint states ({@link io.ankusa.keys.EndpointKey ?E})
 *     are range-deleted and the erase marker goes.</li>
 * </ol>
 *
 * <p><b>Resumable.</b> The erase marker {@code m:erasing:<ord>} (default family) holds the tenant id,
 * the step and the cursor of the walks; every chunk commits its cursor in its own batch, so a run
 * cut short (an exception, a crash) is finished by running it again from the marker, and ends in
 * the same state. Row steps need no cursor: their ranges only shrink.
 *
 * <p><b>Why nothing merges into the counters after they are deleted.</b> Counter rows are removed
 * only here. Every writer that merges into a tenant's counters other than ingest does so for a row
 * it re-reads under the tenant's stripe (claim, settle, revive, purge, expansion, archive settle or
 * drop, recovery); the last step runs under that stripe after the tenant's rows are all gone, so
 * such a writer afterwards finds no row and writes nothing. The last step checks that, under the
 * stripe: the pipeline and the operator go on while an erase runs, so a row inflight during the
 * due step may be settled as a retry (due again) before the inflight step, and a dead or
 * quarantined row may be revived or released; when the tenant still has a due, inflight, dead or
 * quarantined row, the erase starts again from the due step instead of finishing (a second pass
 * finds what came back; its marker and hook go in their steps again). Ingest is fenced by the caller before
 * the erase starts (the writer refuses the tenant's hooks between two batches), and a new hook of
 * the same id after the erase gets a new ordinal.
 */
public final class TenantErasure {

    /** Keys per chunk. */
    public static final int CHUNK = 500;

    private static final byte[] MARKER_PREFIX = "m:erasing:".getBytes(StandardCharsets.US_ASCII);

    private final Store store;
    private final TenantStripes stripes;
    private final TenantPurge purge;
    private final DedupeEraser dedupe;
    private final Quarantine quarantine;

    /**
     * Erases every dedupe key ({@link io.ankusa.keys.DedupeKey ?u}) and expiry key
     * ({@link io.ankusa.keys.DedupeExpiryKey ?e}) of a tenant, on the ingest
     * writer's thread, in synced batches; idempotent (a second call finds nothing).
     */
    @FunctionalInterface
    public interface DedupeEraser {

        /**
         * Erases the tenant's dedupe and expiry keys.
         *
         * @param tenant the tenant id
         * @return how many keys were deleted
         */
        long erase(String tenant);
    }

    /** The steps, in order. */
    public enum Step {
        /** Due rows. */
        DUE,
        /** Inflight rows. */
        INFLIGHT,
        /** Dead rows. */
        DEAD,
        /** Archive obligations. */
        ARCHIVE,
        /** Active markers. */
        ACTIVE,
        /** Dedupe keys and their expiry keys. */
        DEDUPE,
        /** Hooks. */
        HOOKS,
        /** Counters, {@link io.ankusa.keys.OrdByTenantKey ?n}, the tombstone and the marker. */
        FINISH
    }

    /**
     * What an erase in progress has reached, as persisted in its marker.
     *
     * @param ord    the tenant's ordinal
     * @param tenant the tenant id
     * @param step   the step under way
     * @param after  the last key the step's walk handled (empty: from the start)
     */
    public record Progress(long ord, String tenant, Step step, byte[] after) {

        /** Checks the values. */
        public Progress {
            Ordinals.requireTenant(ord);
            Objects.requireNonNull(tenant, "tenant");
            Objects.requireNonNull(step, "step");
            after = after.clone();
        }

        /** The key the step's walk handled last (a copy). */
        @Override
        public byte[] after() {
            return after.clone();
        }

        byte[] encode() {
            byte[] t = tenant.getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(1 + 2 + t.length + after.length).put((byte) step.ordinal())
                    .putShort((short) t.length).put(t).put(after).array();
        }

        static Progress decode(long ord, byte[] value) {
            try {
                ByteBuffer in = ByteBuffer.wrap(value);
                Step step = Step.values()[in.get()];
                byte[] t = new byte[Short.toUnsignedInt(in.getShort())];
                in.get(t);
                byte[] after = new byte[in.remaining()];
                in.get(after);
                return new Progress(ord, new String(t, StandardCharsets.UTF_8), step, after);
            } catch (RuntimeException e) {
                throw new StoreCorruptionException("erase marker of ordinal " + ord + " does not decode: " + e);
            }
        }

        Progress at(Step next, byte[] key) {
            return new Progress(ord, tenant, next, key);
        }
    }

    /**
     * What one erase removed (this run: a resumed erase counts what it removed itself).
     *
     * @param pending    due rows of kind first attempt
     * @param scheduled  due rows of kind retry
     * @param inflight   inflight rows
     * @param dead       dead rows
     * @param bytes      row bytes
     * @param archive    archive obligations
     * @param markers    active markers
     * @param dedupeKeys dedupe and dedupe expiry keys
     * @param hooks      hooks
     * @param quarantined quarantined rows ({@link io.ankusa.keys.QuarantineKey ?Q})
     */
    public record Erased(long pending, long scheduled, long inflight, long dead, long bytes, long archive, long markers,
            long dedupeKeys, long hooks, long quarantined) {

        /** Nothing. */
        public static final Erased NONE = new Erased(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

        /** The counts by name, for the audit entry. */
        public Map<String, Long> counts() {
            Map<String, Long> counts = new LinkedHashMap<>();
            counts.put("pending", pending);
            counts.put("scheduled", scheduled);
            counts.put("inflight", inflight);
            counts.put("dead", dead);
            counts.put("bytes", bytes);
            counts.put("archive", archive);
            counts.put("markers", markers);
            counts.put("dedupe_keys", dedupeKeys);
            counts.put("hooks", hooks);
            counts.put("quarantined", quarantined);
            return counts;
        }
    }

    /** An eraser over {@code store} that purges the tenant's quarantined rows through {@code quarantine}. */
    public TenantErasure(Store store, TenantStripes stripes, TenantPurge purge, Quarantine quarantine,
            DedupeEraser dedupe) {
        this.store = Objects.requireNonNull(store, "store");
        this.stripes = Objects.requireNonNull(stripes, "stripes");
        this.purge = Objects.requireNonNull(purge, "purge");
        this.dedupe = Objects.requireNonNull(dedupe, "dedupe");
        this.quarantine = Objects.requireNonNull(quarantine, "quarantine");
    }

    /** The erase marker key of {@code ord}. */
    public static byte[] markerKey(long ord) {
        byte[] digits = Long.toString(ord).getBytes(StandardCharsets.US_ASCII);
        byte[] key = Arrays.copyOf(MARKER_PREFIX, MARKER_PREFIX.length + digits.length);
        System.arraycopy(digits, 0, key, MARKER_PREFIX.length, digits.length);
        return key;
    }

    /** Every erase in progress (its marker is in the store), for the fence at open. */
    public List<Progress> inProgress() {
        List<Progress> out = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.DEFAULT, KeyRange.prefix(MARKER_PREFIX))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                String digits = new String(kv.key(), MARKER_PREFIX.length, kv.key().length - MARKER_PREFIX.length,
                        StandardCharsets.US_ASCII);
                long ord;
                try {
                    ord = Long.parseLong(digits);
                } catch (NumberFormatException e) {
                    throw new StoreCorruptionException("erase marker key '" + digits + "' names no ordinal");
                }
                out.add(Progress.decode(ord, kv.value()));
            }
        }
        return out;
    }

    /** The erase of {@code ord} in progress, if its marker is in the store. */
    public Optional<Progress> progress(long ord) {
        return store.get(ColumnFamilies.DEFAULT, markerKey(ord)).map(v -> Progress.decode(ord, v));
    }

    /** Starts (or finds) the erase of {@code tenant} at {@code ord}: its marker, synced. */
    public Progress begin(long ord, String tenant) {
        Optional<Progress> existing = progress(ord);
        if (existing.isPresent()) {
            return existing.get();
        }
        Progress start = new Progress(ord, tenant, Step.DUE, new byte[0]);
        new DeliveryBatch().put(ColumnFamilies.DEFAULT, markerKey(ord), start.encode()).commit(store, Durability.SYNC);
        return start;
    }

    /** Runs the erase from {@code progress} to its end; returns what it removed. */
    public Erased run(Progress progress) {
        Tally tally = new Tally();
        Progress at = progress;
        while (true) {
            long ord = at.ord();
            switch (at.step()) {
                case DUE -> {
                    PurgedRows rows;
                    do {
                        rows = purge.purgeDueRows(ord, CHUNK);
                        tally.pending += rows.pending();
                        tally.scheduled += rows.scheduled();
                        tally.bytes += rows.bytes();
                    } while (rows.rows() > 0);
                }
                case INFLIGHT -> {
                    long n;
                    while ((n = eraseInflightChunk(ord, tally)) > 0) {
                        tally.inflight += n;
                    }
                }
                case DEAD -> {
                    PurgedRows rows;
                    do {
                        rows = purge.purgeDeadRows(ord, CHUNK);
                        tally.dead += rows.dead();
                        tally.bytes += rows.bytes();
                    } while (rows.rows() > 0);
                    // Quarantined rows (?Q, keyed by tenant) go in the same step, with their counters and
                    // their hooks.
                    long quarantined;
                    do {
                        quarantined = eraseQuarantineChunk(ord, tally);
                    } while (quarantined > 0);
                }
                case ARCHIVE -> at = walk(at, ArchiveKey.FAMILY.between(), this::archiveOps, tally);
                case ACTIVE -> at = walk(at, ActiveKey.FAMILY.between(), this::markerOps, tally);
                case DEDUPE -> tally.dedupeKeys += dedupe.erase(at.tenant());
                case HOOKS -> at = walk(at, ClearedKey.FAMILY.between(), null, tally);
                case FINISH -> {
                    if (finish(at)) {
                        return tally.erased();
                    }
                    // A row came back since its step (a retry settled, a dead row revived, a
                    // quarantined row released while the erase ran): erase from the first step again.
                    at = at.at(Step.DUE, new byte[0]);
                    new DeliveryBatch().put(ColumnFamilies.DEFAULT, markerKey(ord), at.encode())
                            .commit(store, Durability.SYNC);
                    continue;
                }
                default -> throw new IllegalStateException("unknown step " + at.step());
            }
            Progress next = at.at(Step.values()[at.step().ordinal() + 1], new byte[0]);
            new DeliveryBatch().put(ColumnFamilies.DEFAULT, markerKey(ord), next.encode())
                    .commit(store, Durability.SYNC);
            at = next;
        }
    }

    /** Counts of one run. */
    private static final class Tally {
        long pending;
        long scheduled;
        long inflight;
        long dead;
        long bytes;
        long archive;
        long markers;
        long dedupeKeys;
        long hooks;
        long quarantined;

        Erased erased() {
            return new Erased(pending, scheduled, inflight, dead, bytes, archive, markers, dedupeKeys, hooks,
                    quarantined);
        }
    }

    /** One chunk of the tenant's inflight rows, dropped as orphans (a late settle of them is skipped). */
    private long eraseInflightChunk(long ord, Tally tally) {
        return stripes.locked(ord, () -> {
            List<InflightRow> rows = new ArrayList<>();
            try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(InflightKey.tenantRange(ord)))) {
                while (rows.size() < CHUNK && scan.hasNext()) {
                    KeyValue kv = scan.next();
                    InflightKey k = InflightKey.decode(kv.key());
                    rows.add(new InflightRow(k.ord(), k.seq(), k.sink(), InflightKey.decodeValue(kv.value()),
                            InflightKey.decodeGroup(kv.value())));
                }
            }
            if (rows.isEmpty()) {
                return 0L;
            }
            DeliveryBatch batch = new DeliveryBatch();
            rows.forEach(row -> Deliveries.orphanDropOps(batch, row));
            batch.commit(store, Durability.SYNC);
            tally.bytes += rows.stream().mapToLong(InflightRow::size).sum();
            return (long) rows.size();
        });
    }

    /**
     * One chunk of the tenant's quarantined rows, purged with their counters; returns how many. A
     * quarantined row's hook is the tenant's by its {@code ?Q} key even when it does not decode (the
     * hooks step cannot tell whose such a hook is), so it goes in the same batch once no delivery
     * row of it is left: by this step the tenant has no due, inflight or dead row, so the only rows a
     * hook of it can still have are quarantined ones, and a hook whose rows straddle two chunks goes
     * with the later one; so does its archive obligation.
     */
    private long eraseQuarantineChunk(long ord, Tally tally) {
        return stripes.locked(ord, () -> {
            List<QuarantinedRow> rows = quarantine.tenantRows(ord, CHUNK);
            if (rows.isEmpty()) {
                return 0L;
            }
            DeliveryBatch batch = new DeliveryBatch();
            Map<Long, Long> rowsOfSeq = new LinkedHashMap<>();
            for (QuarantinedRow q : rows) {
                Deliveries.purgeQuarantinedOps(batch, q);
                rowsOfSeq.merge(q.seq(), 1L, Long::sum);
                tally.bytes += q.size();
            }
            rowsOfSeq.forEach((seq, purged) -> {
                if (deliveryRows(seq) == purged
                        && store.get(ColumnFamilies.HOOKS, new HookKey(seq).encode()).isPresent()) {
                    // Its archive obligation too (an undecodable hook cannot be archived): the archive
                    // step would otherwise leave a ?c marker for a hook that is already gone.
                    Optional<byte[]> obligation = store.get(ColumnFamilies.INDEX, new ArchiveKey(seq).encode());
                    if (obligation.isPresent()) {
                        Deliveries.archiveDropOps(batch, seq, ArchiveKey.decodeValue(obligation.get()));
                        tally.archive++;
                    }
                    batch.delete(ColumnFamilies.HOOKS, new HookKey(seq).encode());
                    batch.delete(ColumnFamilies.INDEX, new ClearedKey(seq).encode());
                    tally.hooks++;
                }
            });
            batch.commit(store, Durability.SYNC);
            tally.quarantined += rows.size();
            return (long) rows.size();
        });
    }

    /** How many delivery rows hook {@code seq} has. */
    private long deliveryRows(long seq) {
        long n = 0;
        try (Scan scan = store.scan(ColumnFamilies.DELIVERIES, KeyRange.of(new DeliveryKey(seq, 0).encode(),
                new DeliveryKey(seq + 1, 0).encode()))) {
            while (scan.hasNext()) {
                scan.next();
                n++;
            }
        }
        return n;
    }

    /** Adds to {@code batch} what erasing entry {@code kv} of a walked family takes; true when it took something. */
    @FunctionalInterface
    private interface EntryOps {
        boolean add(DeliveryBatch batch, Progress at, KeyValue kv, Tally tally);
    }

    /**
     * Walks {@code span} from the cursor in chunks, each committed with the advanced cursor under
     * the tenant's stripe; {@code ops} null means the hooks step (a chunk of
     * {@link io.ankusa.keys.ClearedKey ?c} markers).
     */
    private Progress walk(Progress from, KeySpan span, EntryOps ops, Tally tally) {
        Progress at = from;
        while (true) {
            Progress current = at;
            Progress next = stripes.locked(current.ord(), () -> {
                KeyRange range = current.after().length == 0 ? Ranges.of(span) : Ranges.after(current.after(), span);
                List<KeyValue> chunk = new ArrayList<>(CHUNK);
                try (Scan scan = store.scan(ColumnFamilies.INDEX, range)) {
                    while (chunk.size() < CHUNK && scan.hasNext()) {
                        chunk.add(scan.next());
                    }
                }
                if (chunk.isEmpty()) {
                    return null;
                }
                DeliveryBatch batch = new DeliveryBatch();
                if (ops == null) {
                    hookOps(batch, current, chunk, tally);
                } else {
                    for (KeyValue kv : chunk) {
                        ops.add(batch, current, kv, tally);
                    }
                }
                Progress advanced = current.at(current.step(), chunk.get(chunk.size() - 1).key());
                batch.put(ColumnFamilies.DEFAULT, markerKey(current.ord()), advanced.encode());
                batch.commit(store, Durability.SYNC);
                return chunk.size() < CHUNK ? null : advanced;
            });
            if (next == null) {
                return at;
            }
            at = next;
        }
    }

    private boolean archiveOps(DeliveryBatch batch, Progress at, KeyValue kv, Tally tally) {
        ArchiveKey.Value obligation = ArchiveKey.decodeValue(kv.value());
        if (obligation.ord() != at.ord()) {
            return false;
        }
        Deliveries.archiveDropOps(batch, ArchiveKey.decode(kv.key()).seq(), obligation);
        tally.archive++;
        return true;
    }

    private boolean markerOps(DeliveryBatch batch, Progress at, KeyValue kv, Tally tally) {
        ActiveKey marker = ActiveKey.decode(kv.key());
        if (marker.ord() != at.ord()) {
            return false;
        }
        Deliveries.deleteMarkerOps(batch, marker.ord(), marker.bucket());
        tally.markers++;
        return true;
    }

    /**
     * A chunk of {@link io.ankusa.keys.ClearedKey ?c} markers: the hooks among them that are the tenant's go with their
     * marker. By now the tenant has no delivery row and no obligation left, so nothing needs them.
     * A hook that does not decode is left to reclaim (it cannot be told to be the tenant's), unless it
     * was quarantined: those went with their {@code ?Q} rows in the dead step.
     */
    private void hookOps(DeliveryBatch batch, Progress at, List<KeyValue> markers, Tally tally) {
        List<Long> seqs = markers.stream().map(kv -> ClearedKey.decode(kv.key()).seq()).toList();
        List<Optional<byte[]>> hooks = store.multiGet(ColumnFamilies.HOOKS,
                seqs.stream().map(seq -> new HookKey(seq).encode()).toList());
        for (int i = 0; i < seqs.size(); i++) {
            if (hooks.get(i).isEmpty()) {
                continue;
            }
            String tenant;
            try {
                tenant = HookEnvelope.decode(hooks.get(i).get()).hook().tenant();
            } catch (RuntimeException undecodable) {
                continue;
            }
            if (tenant.equals(at.tenant()) && !hasDeliveries(seqs.get(i))) {
                batch.delete(ColumnFamilies.HOOKS, new HookKey(seqs.get(i)).encode());
                batch.delete(ColumnFamilies.INDEX, markers.get(i).key());
                tally.hooks++;
            }
        }
    }

    private boolean hasDeliveries(long seq) {
        try (Scan scan = store.scan(ColumnFamilies.DELIVERIES, KeyRange.of(new DeliveryKey(seq, 0).encode(),
                new DeliveryKey(seq + 1, 0).encode()))) {
            return scan.hasNext();
        }
    }

    /**
     * The last batch: counters off the aggregate and deleted, {@link io.ankusa.keys.OrdByTenantKey ?n} deleted,
     * {@link io.ankusa.keys.TenantByOrdKey ?t} tombstoned, marker gone.
     */
    private boolean finish(Progress at) {
        long ord = at.ord();
        return stripes.locked(ord, () -> {
            if (hasRows(ord)) {
                return false;
            }
            CounterValues left = Counters.read(store, ord);
            // The one place counter rows are deleted (TEN-1 section 4), so the raw batch.
            WriteBatch batch = new WriteBatch();
            for (CounterField field : CounterField.values()) {
                long value = left.get(field);
                if (value != 0) {
                    batch.merge(ColumnFamilies.COUNTERS, new CounterKey(Ordinals.AGGREGATE, field.number()).encode(),
                            -value);
                }
                batch.delete(ColumnFamilies.COUNTERS, new CounterKey(ord, field.number()).encode());
            }
            batch.delete(ColumnFamilies.TENANTS, new OrdByTenantKey(at.tenant()).encode());
            // The tenant's endpoint states (?E): settles write them only for rows still inflight,
            // under this stripe, and none is left now.
            KeySpan endpoints = EndpointKey.tenantRange(ord);
            batch.deleteRange(ColumnFamilies.INDEX, endpoints.from(), endpoints.to());
            batch.put(ColumnFamilies.TENANTS, new TenantByOrdKey(ord).encode(), new byte[0]);
            batch.delete(ColumnFamilies.DEFAULT, markerKey(ord));
            // The attempt history (?H, led by the ordinal): one range delete. No settle writes it any
            // more: the inflight step dropped the tenant's rows, and a settle records only rows it settles.
            KeySpan history = AttemptHistory.tenantAll(ord);
            batch.deleteRange(ColumnFamilies.INDEX, history.from(), history.to());
            // Its ordering keys (?O): the row steps removed each with its row; none can be left,
            // and the range delete keeps a store written by a crash between them clean.
            KeySpan order = OrderKey.tenantRange(ord);
            batch.deleteRange(ColumnFamilies.ORDERING, order.from(), order.to());
            try {
                store.commit(batch, Durability.SYNC);
            } finally {
                // Its history_bytes went with its counters above; settles that read history before this read again.
                stripes.removedHistory();
            }
            return true;
        });
    }

    /**
     * Whether tenant {@code ord} has a due, inflight, dead or quarantined row (under its stripe:
     * none can appear meanwhile). The row steps ran, but the pipeline and the operator go on while
     * an erase runs: a row inflight after the due step may be settled as a retry, due again; a dead
     * row may be revived and a quarantined one released after the due step.
     */
    private boolean hasRows(long ord) {
        for (KeySpan span : List.of(DueKey.tenantRange(ord), InflightKey.tenantRange(ord),
                DeadByTenantKey.tenantRange(ord), QuarantineKey.tenantRange(ord))) {
            try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(span))) {
                if (scan.hasNext()) {
                    return true;
                }
            }
        }
        return false;
    }
}
