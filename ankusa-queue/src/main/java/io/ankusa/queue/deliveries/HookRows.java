package io.ankusa.queue.deliveries;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.store.Cursor;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The delivery rows stored for a set of hooks, by seq: what a hook is still owed, for whoever
 * decides whether it may go (hook reclaim, and the settle that removes a hook's last row).
 *
 * <p>Hooks whose seqs lie close together are read with one scan from the lowest seq's rows to the
 * highest's; hooks spread over {@code scanBudget} seqs or more, or a range holding more than
 * {@code scanBudget} rows (other hooks' rows between them), are read with one seek each through
 * one store {@link Cursor} ({@link #sinksOf}: one iterator or read transaction for all of them,
 * not one per hook, which was most of a reclaim round's reads with 10⁴ tenants' hooks spread over
 * the seqs) or not at all ({@link #scanned}). The
 * caller holds the hooks' tenants' stripes when the answer must stay true until its commit.
 */
public final class HookRows {

    private HookRows() {
    }

    /**
     * The sinks with a delivery row, for each of {@code seqs} that has one.
     *
     * @param store      the store
     * @param seqs       the hooks
     * @param scanBudget most seqs spanned and rows read by one scan over the seqs' range before
     *                   seeking hook by hook
     * @return sinks by seq; a seq without rows is absent
     */
    public static Map<Long, Set<Integer>> sinksOf(Store store, Collection<Long> seqs, int scanBudget) {
        Optional<Map<Long, Set<Integer>>> scanned = scanned(store, seqs, scanBudget);
        if (scanned.isPresent()) {
            return scanned.get();
        }
        Set<Long> wanted = new HashSet<>(seqs);
        Map<Long, Set<Integer>> found = new HashMap<>();
        try (Cursor cursor = store.cursor(ColumnFamilies.DELIVERIES)) {
            for (long seq : new TreeSet<>(wanted)) {
                scan(cursor::seek, seq, seq, wanted, Integer.MAX_VALUE, found);
            }
        }
        return found;
    }

    /**
     * As {@link #sinksOf}, but only if one scan reads them: empty when the seqs span
     * {@code scanBudget} or more, or their range holds more than {@code scanBudget} rows.
     *
     * @param store      the store
     * @param seqs       the hooks
     * @param scanBudget most seqs spanned and rows read
     * @return sinks by seq (a seq without rows is absent), or empty
     */
    public static Optional<Map<Long, Set<Integer>>> scanned(Store store, Collection<Long> seqs, int scanBudget) {
        Map<Long, Set<Integer>> found = new HashMap<>();
        if (seqs.isEmpty()) {
            return Optional.of(found);
        }
        TreeSet<Long> wanted = new TreeSet<>(seqs);
        long low = wanted.first();
        long high = wanted.last();
        if (high - low < scanBudget
                && scan(range -> store.scan(ColumnFamilies.DELIVERIES, range), low, high, wanted, scanBudget, found)) {
            return Optional.of(found);
        }
        return Optional.empty();
    }

    /** Reads the rows of seqs {@code low..high} into {@code found}; false once more than {@code budget} were read. */
    private static boolean scan(Function<KeyRange, Scan> reader, long low, long high, Set<Long> wanted, int budget,
            Map<Long, Set<Integer>> found) {
        KeySpan from = DeliveryKey.hookRange(low);
        KeySpan to = DeliveryKey.hookRange(high);
        int left = budget;
        try (Scan scan = reader.apply(KeyRange.of(from.from(), to.to()))) {
            while (scan.hasNext()) {
                if (left-- == 0) {
                    return false;
                }
                byte[] key = scan.next().key();
                if (key.length == DeliveryKey.LENGTH && !DeliveryKey.FAMILY.isSentinel(key)) {
                    DeliveryKey row = DeliveryKey.decode(key);
                    if (wanted.contains(row.seq())) {
                        found.computeIfAbsent(row.seq(), s -> new HashSet<>()).add(row.sink());
                    }
                }
            }
        }
        return true;
    }
}
