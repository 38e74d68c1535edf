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
 */
final class ClaimReads {

    /** A hook as read for a claim: absent (an orphan), decoded, or stored but undecodable (quarantined). */
    record HookRead(Optional<HookEnvelope.ClaimedHook> hook, boolean undecodable) {
    }

    private final Map<Long, HookRead> hooks;
    private final Map<DeliveryKey, Optional<byte[]>> rows;

    private ClaimReads(Map<Long, HookRead> hooks, Map<DeliveryKey, Optional<byte[]>> rows) {
        this.hooks = hooks;
        this.rows = rows;
    }

    /** The hooks and delivery rows of {@code rows}. */
    static ClaimReads of(Store store, Collection<DueRow> rows) {
        return new ClaimReads(hooks(store, rows), deliveryRows(store, rows));
    }

    /** The hooks of {@code rows} only; {@link #withRowsOf} reads their delivery rows. */
    static ClaimReads hooksOf(Store store, Collection<DueRow> rows) {
        return new ClaimReads(hooks(store, rows), Map.of());
    }

    /** These hooks, with the delivery rows of {@code rows} read now (under the stripes, when the mark moved). */
    ClaimReads withRowsOf(Store store, Collection<DueRow> rows) {
        return new ClaimReads(hooks, deliveryRows(store, rows));
    }

    /** The hook of {@code row}, as read. */
    HookRead hook(DueRow row) {
        HookRead read = hooks.get(row.seq());
        if (read == null) {
            throw new IllegalStateException("no hook read for " + row);
        }
        return read;
    }

    /** The stored delivery row of {@code row}, as read; empty when none is stored. */
    Optional<byte[]> deliveryRow(DueRow row) {
        Optional<byte[]> read = rows.get(new DeliveryKey(row.seq(), row.sink()));
        if (read == null) {
            throw new IllegalStateException("no delivery row read for " + row);
        }
        return read;
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

    private static Map<DeliveryKey, Optional<byte[]>> deliveryRows(Store store, Collection<DueRow> rows) {
        List<DeliveryKey> keys = new ArrayList<>(new LinkedHashSet<>(rows.stream()
                .map(r -> new DeliveryKey(r.seq(), r.sink())).toList()));
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
