package io.ankusa.queue.upkeep;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.keys.AuditKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.MetaKeys;
import io.ankusa.queue.deliveries.AuditRecord;
import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The audit trail in the {@code audit} family: one entry per operator action, keyed
 * {@code <<'a', seq::64, at::64>>} so the newest entry is the last key and a newest-first read is
 * one reverse scan.
 *
 * <p>Entry seqs are 1, 2, 3, … in append order and never reused: the next seq is recovered at
 * open as one more than the larger of the last key and {@code m:audit_pruned}, which retention
 * pruning advances in the same batch as its deletes (so pruning every entry does not restart the
 * numbering). Appends are synced and may come from any thread; two appenders racing may commit in
 * either order, but each entry sorts by the seq it drew.
 */
public final class AuditLog {

    /** Entries read or pruned per batch at most. */
    public static final int MAX_BATCH = 10_000;

    private final Store store;
    private final InstantSource clock;
    private final AtomicLong lastSeq;
    private final Object pruning = new Object();

    private AuditLog(Store store, InstantSource clock, long lastSeq) {
        this.store = store;
        this.clock = clock;
        this.lastSeq = new AtomicLong(lastSeq);
    }

    /** The trail of {@code store}, with its last seq recovered (one seek). */
    public static AuditLog open(Store store, InstantSource clock) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(clock, "clock");
        long pruned = store.get(ColumnFamilies.DEFAULT, MetaKeys.AUDIT_PRUNED)
                .map(v -> MetaKeys.decodeU64("m:audit_pruned", v)).orElse(0L);
        long last = 0;
        KeySpan all = AuditKey.FAMILY.between();
        try (Scan scan = store.scan(ColumnFamilies.AUDIT, KeyRange.of(all.from(), all.to()), Direction.REVERSE)) {
            if (scan.hasNext()) {
                last = AuditKey.decode(scan.next().key()).seq();
            }
        }
        return new AuditLog(store, clock, Math.max(pruned, last));
    }

    /** Records {@code action} on {@code tenantId} with {@code counts} and no actor, synced; returns the entry. */
    public AuditEntry append(AuditAction action, String tenantId, Map<String, Long> counts) {
        return append(action, tenantId, counts, Optional.empty());
    }

    /** Records {@code action} on {@code tenantId} with {@code counts} by {@code actor}, synced; returns the entry. */
    public AuditEntry append(AuditAction action, String tenantId, Map<String, Long> counts, Optional<String> actor) {
        AuditRecord record = new AuditRecord(action, tenantId, counts, actor);
        AuditKey key = new AuditKey(lastSeq.incrementAndGet(), clock.millis());
        store.commit(new WriteBatch().put(ColumnFamilies.AUDIT, key.encode(), record.encode()), Durability.SYNC);
        return entry(key, record);
    }

    /** Up to {@code limit} entries, newest first. */
    public List<AuditEntry> newestFirst(int limit) {
        return read(AuditKey.FAMILY.between(), limit);
    }

    /** Up to {@code limit} entries with a seq below {@code beforeSeq}, newest first (to page back). */
    public List<AuditEntry> newestFirst(long beforeSeq, int limit) {
        return read(AuditKey.before(Math.max(0, beforeSeq)), limit);
    }

    private List<AuditEntry> read(KeySpan span, int limit) {
        requireLimit(limit);
        List<AuditEntry> out = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.AUDIT, KeyRange.of(span.from(), span.to()), Direction.REVERSE)) {
            while (out.size() < limit && scan.hasNext()) {
                KeyValue kv = scan.next();
                out.add(entry(AuditKey.decode(kv.key()), AuditRecord.decode(kv.value())));
            }
        }
        return out;
    }

    /**
     * Deletes up to {@code limit} of the oldest entries recorded before {@code cutoff} (epoch ms)
     * in one batch; returns how many. Stops at the first entry inside the retention, so a clock
     * that went backwards can only keep entries longer, never drop a newer one early.
     */
    public int prune(long cutoff, int limit) {
        requireLimit(limit);
        synchronized (pruning) {
            WriteBatch batch = new WriteBatch();
            int deleted = 0;
            long highest = 0;
            KeySpan all = AuditKey.FAMILY.between();
            try (Scan scan = store.scan(ColumnFamilies.AUDIT, KeyRange.of(all.from(), all.to()))) {
                while (deleted < limit && scan.hasNext()) {
                    byte[] key = scan.next().key();
                    AuditKey k = AuditKey.decode(key);
                    if (k.at() >= cutoff) {
                        break;
                    }
                    batch.delete(ColumnFamilies.AUDIT, key);
                    highest = k.seq();
                    deleted++;
                }
            }
            if (deleted > 0) {
                batch.put(ColumnFamilies.DEFAULT, MetaKeys.AUDIT_PRUNED, MetaKeys.u64Value(highest));
                store.commit(batch, Durability.ASYNC);
            }
            return deleted;
        }
    }

    private static AuditEntry entry(AuditKey key, AuditRecord record) {
        return new AuditEntry(key.seq(), Instant.ofEpochMilli(key.at()), record.action(), record.tenantId(),
                record.counts(), record.actor());
    }

    private static void requireLimit(int limit) {
        if (limit < 1 || limit > MAX_BATCH) {
            throw new IllegalArgumentException("limit must be in 1.." + MAX_BATCH + ": " + limit);
        }
    }
}
