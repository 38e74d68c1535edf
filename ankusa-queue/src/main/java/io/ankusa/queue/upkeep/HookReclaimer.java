package io.ankusa.queue.upkeep;

import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ClearedKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.queue.deliveries.DeliveryBatch;
import io.ankusa.queue.deliveries.HookRows;
import io.ankusa.queue.deliveries.TenantStripes;
import io.ankusa.queue.intake.TenantOrdinals;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Removes hooks that no delivery row and no archive obligation needs any more, in bounded rounds
 * driven by the {@link io.ankusa.keys.ClearedKey ?c} cleared markers.
 *
 * <p>Every transition that removes a delivery row (delivered, orphan drop, purge) or an archive
 * obligation (settle, drop) puts {@link io.ankusa.keys.ClearedKey ?c}{@code (seq)} in its own batch,
 * except a settle that removes a hook's last row while it has no obligation: that settle deletes the
 * hook itself, under the same stripes ({@code deliveries.HookRelease}). A round
 * reads up to
 * {@code limit} markers and, for each hook, checks whether a delivery row ({@code deliveries}
 * range of the seq: expansion may have added sinks the envelope does not list) or an obligation
 * ({@link io.ankusa.keys.ArchiveKey ?a}) is left: if none, the hook and its marker go in one batch; if some, only the
 * marker goes, because the transition that removes the last one writes a new marker.
 *
 * <p>Why no hook is lost or kept forever: the check and the delete happen under the stripes of
 * the hooks' tenants, which every transition that adds or removes a delivery row or an obligation
 * of an existing hook also holds (claim, settle, revive, purge, expansion, archive settle/drop);
 * ingest only creates new seqs. So between the check and the commit no row can appear (the hook
 * would be deleted while owed) and no marker can be written and then deleted by this round (the
 * hook would be kept forever). A hook whose envelope is gone has nothing left to reclaim: its
 * marker goes. A hook that does not decode (so its tenant, and stripe, is unknown) is removed only
 * once nothing needs it (nothing can add to it: expansion needs the envelope); otherwise its marker
 * stays, and rounds walk on past it (an in-memory cursor that wraps around to the first marker),
 * so stuck markers cannot stall reclaim.
 *
 * <p>A round checks and deletes its hooks in chunks of {@value #CHUNK}, each under its own hold of
 * its tenants' stripes, so a tenant's claims and settles wait for one chunk at most, not a round.
 * A chunk's delivery rows are read with one scan over its seq range (not one seek per hook), unless
 * the range spans or holds more than {@value #SCAN_BUDGET} seqs or rows ({@link HookRows}).
 *
 * <p>The batches are unsynced: if a crash loses one, its markers are still there and the round is
 * redone.
 */
public final class HookReclaimer {

    /**
     * What one round did.
     *
     * @param markers cleared markers read
     * @param hooks   hooks removed
     */
    public record Round(int markers, int hooks) {
    }

    /**
     * Hooks checked and deleted under one hold of their tenants' stripes. A round checked hook by
     * hook held a busy tenant's stripe, which its claims and settles take too, for up to 160 ms;
     * with one scan per chunk a hold is two reads and a commit. Chunks of 32 made one commit per
     * 32 hooks, on LMDB each a data-page {@code fdatasync} holding its single writer: during a
     * drain, reclaim made four times as many LMDB commits as the claims did.
     */
    static final int CHUNK = 128;

    /**
     * Most delivery rows one scan over a chunk's seq range reads before the chunk's hooks are
     * checked one by one instead (one seek each).
     */
    static final int SCAN_BUDGET = 4 * CHUNK;

    private final Store store;
    private final TenantStripes stripes;
    private final TenantOrdinals ordinals;
    private long after;

    /** Reclaim over {@code store}. */
    public HookReclaimer(Store store, TenantStripes stripes, TenantOrdinals ordinals) {
        this.store = Objects.requireNonNull(store, "store");
        this.stripes = Objects.requireNonNull(stripes, "stripes");
        this.ordinals = Objects.requireNonNull(ordinals, "ordinals");
    }

    /** One round over up to {@code limit} markers, continuing where the last round stopped. */
    public synchronized Round reclaim(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1: " + limit);
        }
        List<Long> seqs = markers(limit);
        after = seqs.size() < limit ? 0 : seqs.get(seqs.size() - 1);
        if (seqs.isEmpty()) {
            return new Round(0, 0);
        }
        List<Optional<byte[]>> hooks =
                store.multiGet(ColumnFamilies.HOOKS, seqs.stream().map(s -> new HookKey(s).encode()).toList());
        List<Candidate> candidates = new ArrayList<>(seqs.size());
        for (int i = 0; i < seqs.size(); i++) {
            candidates.add(candidate(seqs.get(i), hooks.get(i)));
        }
        int removed = 0;
        for (int from = 0; from < candidates.size(); from += CHUNK) {
            removed += settleChunk(candidates.subList(from, Math.min(candidates.size(), from + CHUNK)));
        }
        return new Round(seqs.size(), removed);
    }

    /** Checks and deletes {@code chunk} under the stripes of its hooks' tenants, in one batch. */
    private int settleChunk(List<Candidate> chunk) {
        Set<Long> ords = new HashSet<>();
        chunk.forEach(c -> c.ord().ifPresent(ords::add));
        return stripes.lockedAll(ords, () -> settle(chunk));
    }

    private record Candidate(long seq, boolean hookPresent, OptionalLong ord) {
    }

    private Candidate candidate(long seq, Optional<byte[]> hook) {
        if (hook.isEmpty()) {
            return new Candidate(seq, false, OptionalLong.empty());
        }
        try {
            return new Candidate(seq, true, ordinals.ord(HookEnvelope.decode(hook.get()).hook().tenant()));
        } catch (StoreCorruptionException e) {
            return new Candidate(seq, true, OptionalLong.empty());
        }
    }

    /** Up to {@code limit} markers from the cursor on, wrapping around to the start once. */
    private List<Long> markers(int limit) {
        KeySpan family = ClearedKey.FAMILY.between();
        List<Long> seqs = new ArrayList<>();
        if (after > 0) {
            read(new ClearedKey(after + 1).encode(), family.to(), limit, seqs);
            if (seqs.size() < limit) {
                read(family.from(), new ClearedKey(after + 1).encode(), limit, seqs);
            }
        } else {
            read(family.from(), family.to(), limit, seqs);
        }
        return seqs;
    }

    private void read(byte[] from, byte[] to, int limit, List<Long> into) {
        try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.of(from, to))) {
            while (into.size() < limit && scan.hasNext()) {
                into.add(ClearedKey.decode(scan.next().key()).seq());
            }
        }
    }

    /** Under the stripes: re-check what each hook is owed, and commit the deletes. */
    private int settle(List<Candidate> candidates) {
        List<Optional<byte[]>> obligations = store.multiGet(ColumnFamilies.INDEX,
                candidates.stream().map(c -> new ArchiveKey(c.seq()).encode()).toList());
        Set<Long> rowsLeft = HookRows.sinksOf(store, candidates.stream().map(Candidate::seq).toList(), SCAN_BUDGET)
                .keySet();
        DeliveryBatch batch = new DeliveryBatch();
        int removed = 0;
        for (int i = 0; i < candidates.size(); i++) {
            Candidate c = candidates.get(i);
            boolean owed = obligations.get(i).isPresent()
                    || rowsLeft.contains(c.seq());
            if (!c.hookPresent()) {
                batch.delete(ColumnFamilies.INDEX, new ClearedKey(c.seq()).encode());
            } else if (!owed) {
                batch.delete(ColumnFamilies.HOOKS, new HookKey(c.seq()).encode());
                batch.delete(ColumnFamilies.INDEX, new ClearedKey(c.seq()).encode());
                removed++;
            } else if (c.ord().isPresent()) {
                batch.delete(ColumnFamilies.INDEX, new ClearedKey(c.seq()).encode());
            }
        }
        if (!batch.isEmpty()) {
            batch.commit(store, Durability.ASYNC);
        }
        return removed;
    }
}
