package io.ankusa.queue.migration;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.KeyFormatException;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every hook's tenant and envelope size, read with one forward scan of the {@code hooks} family in
 * seq order: what the 2 → 3 migration needs of a hook, so that its steps look hooks up in memory
 * instead of reading one hook at random per row. Rows of the due and dead phases are in due-time
 * order and point at hooks all over the family; once the hooks no longer fit the store's cache,
 * those random reads were nearly all of the migration's time (a flight recording at 10⁶ rows on
 * RocksDB with its default block cache: over 90 % of the migrating thread's samples in point
 * reads of hooks), while a forward scan reads each block once, in file order.
 *
 * <p>Why this keeps the migration's guarantees: the migration never writes the {@code hooks}
 * family and nothing else writes while it runs, so what the scan read is what every step would
 * have read with point reads; steps stay functions of the committed store and their cursor (a
 * resumed run scans again). A hook is "undecodable" exactly when {@link HookEnvelope#decode}
 * refuses it, as before. The scan runs up to the family's hi sentinel (written before the migration
 * starts) and refuses a scan that ends without meeting it as corruption (TEN-1 §0, rule 3).
 *
 * <p>Memory: 16 bytes per hook plus one string per distinct tenant. A family of more than
 * {@code maxHooks} hooks is not scanned to the end: {@link #scan} answers empty and the steps read
 * their hooks with a sorted multi-get as before.
 */
final class HookDirectory {

    /** A tenant index meaning "the hook did not decode". */
    private static final int UNDECODABLE = -1;

    private final long[] seqs;
    private final int[] tenantIndexes;
    private final int[] sizes;
    private final String[] tenants;

    private HookDirectory(long[] seqs, int[] tenantIndexes, int[] sizes, String[] tenants) {
        this.seqs = seqs;
        this.tenantIndexes = tenantIndexes;
        this.sizes = sizes;
        this.tenants = tenants;
    }

    /** Scans the hooks family; empty when it holds more than {@code maxHooks} hooks. */
    static Optional<HookDirectory> scan(Store store, int maxHooks) {
        long[] seqs = new long[1024];
        int[] tenantIndexes = new int[1024];
        int[] sizes = new int[1024];
        Map<String, Integer> tenantIndex = new HashMap<>();
        List<String> tenants = new ArrayList<>();
        int n = 0;
        byte[] hi = HookKey.FAMILY.hi();
        try (Scan scan = store.scan(ColumnFamilies.HOOKS,
                KeyRange.of(HookKey.FAMILY.lo(), Arrays.copyOf(hi, hi.length + 1)))) {
            while (true) {
                if (!scan.hasNext()) {
                    throw new StoreCorruptionException("the hooks family ended without its hi sentinel (a scan ended "
                            + "early, or the sentinel was lost)");
                }
                KeyValue kv = scan.next();
                if (Arrays.equals(kv.key(), hi)) {
                    break;
                }
                long seq;
                try {
                    seq = HookKey.decode(kv.key()).seq();
                } catch (KeyFormatException e) {
                    continue; // the lo sentinel or a stray key: no HookKey(seq) ever reads it
                }
                if (n == maxHooks) {
                    return Optional.empty();
                }
                if (n == seqs.length) {
                    int grown = (int) Math.min((long) maxHooks, 2L * n);
                    seqs = Arrays.copyOf(seqs, grown);
                    tenantIndexes = Arrays.copyOf(tenantIndexes, grown);
                    sizes = Arrays.copyOf(sizes, grown);
                }
                int index;
                try {
                    String tenant = HookEnvelope.decode(kv.value()).hook().tenant();
                    index = tenantIndex.computeIfAbsent(tenant, t -> {
                        tenants.add(t);
                        return tenants.size() - 1;
                    });
                } catch (StoreCorruptionException e) {
                    index = UNDECODABLE;
                }
                seqs[n] = seq;
                tenantIndexes[n] = index;
                sizes[n] = kv.value().length;
                n++;
            }
        }
        return Optional.of(new HookDirectory(Arrays.copyOf(seqs, n), Arrays.copyOf(tenantIndexes, n),
                Arrays.copyOf(sizes, n), tenants.toArray(String[]::new)));
    }

    /** What the directory knows of hook {@code seq}. */
    Entry entry(long seq) {
        int at = indexOf(seq);
        if (at < 0) {
            return Entry.MISSING;
        }
        int tenant = tenantIndexes[at];
        return new Entry(true, tenant == UNDECODABLE ? Optional.empty() : Optional.of(tenants[tenant]), sizes[at]);
    }

    /**
     * Where hook {@code seq} is in the directory, or -1 when the family does not hold it. Seqs are
     * dense unless hooks were reclaimed, so the position {@code seq - first} is tried before a
     * binary search.
     */
    int indexOf(long seq) {
        if (seqs.length == 0) {
            return -1;
        }
        long guess = seq - seqs[0];
        if (guess >= 0 && guess < seqs.length && seqs[(int) guess] == seq) {
            return (int) guess;
        }
        int at = Arrays.binarySearch(seqs, seq);
        return at < 0 ? -1 : at;
    }

    /** The tenant index of the hook at {@code at} ({@link #indexOf}), or -1 when it did not decode. */
    int tenantIndexAt(int at) {
        return tenantIndexes[at];
    }

    /** The stored envelope length of the hook at {@code at}. */
    int sizeAt(int at) {
        return sizes[at];
    }

    /** The tenant of tenant index {@code index}. */
    String tenant(int index) {
        return tenants[index];
    }

    /** Distinct tenants (tenant indexes are {@code 0 .. tenantCount() - 1}). */
    int tenantCount() {
        return tenants.length;
    }

    /** Hooks in the directory. */
    int size() {
        return seqs.length;
    }

    /**
     * One hook as the directory knows it.
     *
     * @param exists whether the hooks family holds it
     * @param tenant its tenant; empty when it is missing or did not decode
     * @param size   its stored envelope's length in bytes (0 when missing)
     */
    record Entry(boolean exists, Optional<String> tenant, int size) {
        static final Entry MISSING = new Entry(false, Optional.empty(), 0);
    }
}
