package io.ankusa.queue.deliveries;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.HookKey;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a claim reads besides its due rows: each row's hook, decoded for the sink
 * ({@link HookEnvelope#decodeClaimed}), and its delivery row (the attempts so far), each in one
 * multi-get. A tick's claim reads them <em>before</em> it takes its tenants' stripes, so the
 * stripes are held for the due rows' check and the commit only, not for the reads and the decoding
 * (with one tenant, every settle and every reclaim chunk waits for that stripe).
 *
 * <p>Why reading them before the stripes is exact. A hook is never rewritten while a due row of it
 * exists: it is written once at ingest and deleted by reclaim only once none of its delivery rows
 * is left, so a row still due under the stripes has the hook read before them. A delivery row is
 * written only by a transition into due (ingest, expansion, retry, revive, release from the
 * quarantine) and deleted only with its row; so a row that stayed due all along has the delivery
 * row read before the stripes. That it stayed due is what the claim's mark says
 * ({@link TenantStripes#dueRemovals()} unchanged since before the scheduler's read, and so since
 * before these reads): nothing removed a due row since. When the mark moved, the claim reads the
 * delivery rows of the rows still due again under the stripes ({@link #withRowsOf}).
 *
 * <p>Which delivery rows are read at all. A delivery row is read only for its attempt count (the
 * attempt number handed to the sink) and to quarantine one that does not decode. A first attempt
 * written in this run records 0 attempts, whoever wrote it: its delivery row is not read, and its
 * attempts are 0 ({@link UnreadAttempts}, where the argument is: ingest, expansion, revive and a
 * release from the quarantine write 0 attempts; boot recovery and the migration, which keep a
 * count, run at open over rows stored then, at or below the bound). A retry, and every row stored
 * when the queue opened, is read as before. With the kinds of the rows as stored: the scheduler's
 * read when the claim takes the rows as read (a due row's value never changes while it exists),
 * else the read under the stripes.
 */
final class ClaimReads {

    /** A hook as read for a claim: absent (an orphan), decoded, or stored but undecodable (quarantined). */
    record HookRead(Optional<HookEnvelope.ClaimedHook> hook, boolean undecodable) {
    }

    private final Map<Long, HookRead> hooks;
    private final Map<DeliveryKey, Optional<byte[]>> rows;
    private final UnreadAttempts unread;

    private ClaimReads(Map<Long, HookRead> hooks, Map<DeliveryKey, Optional<byte[]>> rows, UnreadAttempts unread) {
        this.hooks = hooks;
        this.rows = rows;
        this.unread = unread;
    }

    /**
     * The hooks of {@code rows}, and the delivery rows of those that are not {@linkplain UnreadAttempts#fresh fresh}.
     */
    static ClaimReads of(Store store, Collection<DueRow> rows, UnreadAttempts unread) {
        return new ClaimReads(hooks(store, rows), deliveryRows(store, rows, unread), unread);
    }

    /** The hooks of {@code rows} only; {@link #withRowsOf} reads their delivery rows. */
    static ClaimReads hooksOf(Store store, Collection<DueRow> rows, UnreadAttempts unread) {
        return new ClaimReads(hooks(store, rows), Map.of(), unread);
    }

    /**
     * These hooks, with the delivery rows of {@code rows} (as stored now) that are not
     * {@linkplain UnreadAttempts#fresh fresh} read now (under the stripes, when the mark moved).
     */
    ClaimReads withRowsOf(Store store, Collection<DueRow> rows) {
        return new ClaimReads(hooks, deliveryRows(store, rows, unread), unread);
    }

    /** The hook of {@code row}, as read. */
    HookRead hook(DueRow row) {
        HookRead read = hooks.get(row.seq());
        if (read == null) {
            throw new IllegalStateException("no hook read for " + row);
        }
        return read;
    }

    /**
     * The attempts {@code row}'s delivery row records: 0 for a {@linkplain UnreadAttempts#fresh fresh}
     * row (not read) and for a row with no delivery row stored; empty when the stored row does not
     * decode (the caller quarantines the row).
     */
    OptionalInt attempts(DueRow row) {
        if (unread.fresh(row)) {
            return OptionalInt.of(0);
        }
        Optional<byte[]> read = rows.get(new DeliveryKey(row.seq(), row.sink()));
        if (read == null) {
            throw new IllegalStateException("no delivery row read for " + row);
        }
        return read.map(ClaimReads::attemptsOf).orElse(OptionalInt.of(0));
    }

    /** The attempts a stored delivery row records, or empty when it does not decode (the row is quarantined). */
    private static OptionalInt attemptsOf(byte[] row) {
        try {
            return OptionalInt.of(DeliveryRow.decode(row).attempts());
        } catch (StoreCorruptionException e) {
            return OptionalInt.empty();
        }
    }

    private static Map<Long, HookRead> hooks(Store store, Collection<DueRow> rows) {
        List<Long> seqs = new ArrayList<>(new LinkedHashSet<>(rows.stream().map(DueRow::seq).toList()));
        List<byte[]> keys = new ArrayList<>(seqs.size());
        seqs.forEach(seq -> keys.add(new HookKey(seq).encode()));
        List<Optional<byte[]>> raw = store.multiGet(ColumnFamilies.HOOKS, keys);
        Map<Long, HookRead> out = new HashMap<>();
        for (int i = 0; i < seqs.size(); i++) {
            HookRead read = new HookRead(Optional.empty(), false);
            if (raw.get(i).isPresent()) {
                try {
                    read = new HookRead(Optional.of(HookEnvelope.decodeClaimed(raw.get(i).get())), false);
                } catch (StoreCorruptionException e) {
                    // Never an orphan: an acknowledged hook that does not decode is corruption. Its rows
                    // are quarantined (kept, counted, listed), and the caller reports them.
                    read = new HookRead(Optional.empty(), true);
                }
            }
            out.put(seqs.get(i), read);
        }
        return out;
    }

    private static Map<DeliveryKey, Optional<byte[]>> deliveryRows(Store store, Collection<DueRow> rows,
            UnreadAttempts unread) {
        List<DeliveryKey> keys = new ArrayList<>(new LinkedHashSet<>(rows.stream().filter(r -> !unread.fresh(r))
                .map(r -> new DeliveryKey(r.seq(), r.sink())).toList()));
        if (keys.isEmpty()) {
            return Map.of();
        }
        List<byte[]> encoded = new ArrayList<>(keys.size());
        keys.forEach(k -> encoded.add(k.encode()));
        List<Optional<byte[]>> values = store.multiGet(ColumnFamilies.DELIVERIES, encoded);
        Map<DeliveryKey, Optional<byte[]>> out = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            out.put(keys.get(i), values.get(i));
        }
        return out;
    }
}
