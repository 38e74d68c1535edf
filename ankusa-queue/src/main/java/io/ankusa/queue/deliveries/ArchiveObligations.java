package io.ankusa.queue.deliveries;

import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.store.Durability;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Archive obligations ({@link io.ankusa.keys.ArchiveKey ?a}) as the archive compactor uses them: list the oldest, then
 * settle (archived) or drop (cannot be archived) each. An obligation is consumed under its
 * tenant's stripe, after re-reading it, so it is counted down once.
 */
public final class ArchiveObligations {

    private final Store store;
    private final TenantStripes stripes;

    /** Obligations of {@code store}. */
    public ArchiveObligations(Store store, TenantStripes stripes) {
        this.store = Objects.requireNonNull(store, "store");
        this.stripes = Objects.requireNonNull(stripes, "stripes");
    }

    /** The seqs of up to {@code limit} oldest obligations. */
    public List<Long> oldest(int limit) {
        List<Long> out = new ArrayList<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(ArchiveKey.FAMILY.between()))) {
            while (out.size() < limit && scan.hasNext()) {
                out.add(ArchiveKey.decode(scan.next().key()).seq());
            }
        }
        return out;
    }

    /** Hook {@code seq} was archived; false when it had no obligation. */
    public boolean settle(long seq) {
        return consume(seq, true);
    }

    /** Hook {@code seq} will not be archived; false when it had no obligation. */
    public boolean drop(long seq) {
        return consume(seq, false);
    }

    /**
     * Settles the obligations of {@code archived} and drops those of {@code dropped} in one synced
     * batch, under their owners' stripes after a re-read; returns how many existed and were consumed.
     */
    public int consume(Collection<Long> archived, Collection<Long> dropped) {
        Map<Long, Boolean> outcomes = new LinkedHashMap<>();
        archived.forEach(seq -> outcomes.put(seq, true));
        dropped.forEach(seq -> outcomes.putIfAbsent(seq, false));
        if (outcomes.isEmpty()) {
            return 0;
        }
        List<Long> seqs = List.copyOf(outcomes.keySet());
        List<byte[]> keys = seqs.stream().map(seq -> new ArchiveKey(seq).encode()).toList();
        Set<Long> owners = new HashSet<>();
        store.multiGet(ColumnFamilies.INDEX, keys)
                .forEach(v -> v.ifPresent(raw -> owners.add(ArchiveKey.decodeValue(raw).ord())));
        return stripes.lockedAll(owners, () -> {
            List<Optional<byte[]>> again = store.multiGet(ColumnFamilies.INDEX, keys);
            DeliveryBatch batch = new DeliveryBatch();
            int consumed = 0;
            for (int i = 0; i < seqs.size(); i++) {
                Optional<byte[]> value = again.get(i);
                // Only obligations whose owner is locked: one written meanwhile waits for the next round.
                if (value.isEmpty() || !owners.contains(ArchiveKey.decodeValue(value.get()).ord())) {
                    continue;
                }
                long seq = seqs.get(i);
                if (outcomes.get(seq)) {
                    Deliveries.archiveSettleOps(batch, seq, ArchiveKey.decodeValue(value.get()));
                } else {
                    Deliveries.archiveDropOps(batch, seq, ArchiveKey.decodeValue(value.get()));
                }
                consumed++;
            }
            if (!batch.isEmpty()) {
                batch.commit(store, Durability.SYNC);
            }
            return consumed;
        });
    }

    private boolean consume(long seq, boolean settled) {
        byte[] key = new ArchiveKey(seq).encode();
        Optional<byte[]> value = store.get(ColumnFamilies.INDEX, key);
        if (value.isEmpty()) {
            return false;
        }
        long ord = ArchiveKey.decodeValue(value.get()).ord();
        return stripes.locked(ord, () -> {
            Optional<byte[]> again = store.get(ColumnFamilies.INDEX, key);
            if (again.isEmpty()) {
                return false;
            }
            DeliveryBatch batch = new DeliveryBatch();
            if (settled) {
                Deliveries.archiveSettleOps(batch, seq, ArchiveKey.decodeValue(again.get()));
            } else {
                Deliveries.archiveDropOps(batch, seq, ArchiveKey.decodeValue(again.get()));
            }
            batch.commit(store, Durability.SYNC);
            return true;
        });
    }
}
