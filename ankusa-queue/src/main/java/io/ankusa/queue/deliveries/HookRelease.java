package io.ankusa.queue.deliveries;

import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What becomes of the hooks whose rows a settle delivers: a hook the settle leaves with no
 * delivery row and no archive obligation is deleted in the settle's own batch; any other gets a
 * {@link io.ankusa.keys.ClearedKey ?c} marker, for {@link io.ankusa.queue.upkeep.HookReclaimer} to
 * check once its other rows are gone.
 *
 * <p>Only when one scan reads the hooks' rows: their seqs lie within {@value #SCAN_BUDGET} of each
 * other and the range holds at most that many rows (a tenant's backlog delivered in order). A
 * settle whose hooks are spread wider (many tenants' oldest rows) leaves a marker for each, as
 * before: checked one seek each, on the settle's path and under its stripes, they cost the drain at
 * 10 000 tenants a quarter of its rate in the outbox bench, more than the marker and reclaim's commit.
 *
 * <p>Why this is safe: the check runs under the stripes of the settled rows' tenants, which every
 * transition that adds a delivery row or an obligation to an existing hook holds as well
 * (expansion, revive; ingest only creates new seqs), so nothing can come to need the hook between
 * the check and the batch's commit; and the hook goes in the batch that deletes its last row, so a
 * crash keeps both or neither. A one-sink hook delivered in its tenant's order, the common case,
 * needs no marker, no reclaim round and no commit of its own (a marker's put and delete,
 * in reclaim's commits, were two of a delivery's eleven writes).
 */
final class HookRelease {

    /**
     * Most seqs the settled hooks span, and most delivery rows the scan over them reads; beyond
     * either, every hook of the settle gets its marker.
     */
    static final int SCAN_BUDGET = 512;

    private HookRelease() {
    }

    /**
     * Adds to {@code batch}, once per hook of {@code delivered}, the hook's delete or its cleared
     * marker. The caller holds the tenants' stripes and has added the deletes of the rows in
     * {@code removed} (every row of this batch that leaves the store, {@code delivered} among them).
     */
    static void appendTo(Store store, DeliveryBatch batch, Collection<InflightRow> delivered,
            Set<InflightKey> removed) {
        if (delivered.isEmpty()) {
            return;
        }
        Set<Long> seqs = new LinkedHashSet<>();
        delivered.forEach(r -> seqs.add(r.seq()));
        List<Long> hooks = new ArrayList<>(seqs);
        Optional<Map<Long, Set<Integer>>> scanned = HookRows.scanned(store, hooks, SCAN_BUDGET);
        if (scanned.isEmpty()) {
            // Spread hooks: a seek each would hold the stripes (and the settle) longer than reclaim
            // takes to check them later, off the settle's path.
            hooks.forEach(seq -> Deliveries.hookClearedOps(batch, seq));
            return;
        }
        Map<Long, Set<Integer>> rows = scanned.get();
        List<Optional<byte[]>> obligations = store.multiGet(ColumnFamilies.INDEX,
                hooks.stream().map(seq -> new ArchiveKey(seq).encode()).toList());
        Set<DeliveryKey> leaving = new HashSet<>();
        removed.forEach(k -> leaving.add(new DeliveryKey(k.seq(), k.sink())));
        for (int i = 0; i < hooks.size(); i++) {
            long seq = hooks.get(i);
            if (obligations.get(i).isEmpty() && noneLeft(seq, rows.getOrDefault(seq, Set.of()), leaving)) {
                Deliveries.hookReleasedOps(batch, seq);
            } else {
                Deliveries.hookClearedOps(batch, seq);
            }
        }
    }

    /** Whether every stored row of hook {@code seq} (its {@code sinks}) is among the rows the batch removes. */
    private static boolean noneLeft(long seq, Set<Integer> sinks, Set<DeliveryKey> leaving) {
        for (int sink : sinks) {
            if (!leaving.contains(new DeliveryKey(seq, sink))) {
                return false;
            }
        }
        return true;
    }
}
