package io.ankusa.queue.migration;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.KeyFormatException;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.keys.Ordinals;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.queue.deliveries.DeliveryBatch;
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
 * The tenant ordinals of one run of the 2 → 3 migration, kept across its steps: every
 * {@link OrdByTenantKey ?n} row is read once, with one scan at the run's first step, and a step's
 * new ordinals join them when the runner asks for the next step (it commits a step before it asks
 * for the next one). Ordinals are stable once committed and nothing else writes the store while
 * the migration runs, so this answers what the per-step multi-get of {@code ?n} rows answered
 * before (the queue's {@code TenantOrdinals}, rebuilt every step): a stored tenant gets its stored
 * ordinal, a new one the next ordinal in first-sight order, and the allocation's
 * {@link TenantByOrdKey ?t}, {@link OrdByTenantKey ?n} and {@code m:next_ord} puts ride in the batch
 * of the step that first uses it.
 *
 * <p>A step's allocations are {@linkplain #stepCommitted() promoted} only by the step that follows
 * it in the same run, and {@linkplain #rollBackStep() rolled back} when the same step is asked for
 * again; neither reads the store, so they are right while the runner is still committing the step
 * before. A run that failed is dropped whole, and the next run reads the store again.
 *
 * <p>Hooks found in a {@link HookDirectory} are resolved through the directory's tenant index
 * ({@link #ordOfIndex}), so a step hashes each distinct tenant name once per run, not once per row.
 */
final class RunOrdinals {

    private final Map<String, Long> ords;
    private final List<String> allocated = new ArrayList<>();
    /** Ordinals by directory tenant index (0: not resolved yet); empty without a directory. */
    private final long[] byIndex;
    private final long storedNext;
    private long nextOrd;
    /** Whether {@code m:next_ord} was stored when the run started or a step of it put one. */
    private boolean nextOrdWritten;
    /** {@link #nextOrd} and {@link #nextOrdWritten} before the current step, for {@link #rollBackStep()}. */
    private long nextBeforeStep;
    private boolean writtenBeforeStep;

    private RunOrdinals(Map<String, Long> ords, long nextOrd, boolean nextOrdStored, int directoryTenants) {
        this.ords = ords;
        this.storedNext = nextOrd;
        this.nextOrd = nextOrd;
        this.nextOrdWritten = nextOrdStored;
        this.nextBeforeStep = nextOrd;
        this.writtenBeforeStep = nextOrdStored;
        this.byIndex = new long[directoryTenants];
    }

    /**
     * Reads {@code m:next_ord} and every {@code ?n} row (to the family's hi sentinel; a scan that
     * ends early is refused as corruption).
     *
     * @param directoryTenants distinct tenants of the run's hook directory (0 without one)
     */
    static RunOrdinals load(Store store, int directoryTenants) {
        Optional<byte[]> stored = store.get(ColumnFamilies.DEFAULT, MetaKeys.NEXT_ORD);
        long next = stored.map(v -> MetaKeys.decodeU32("m:next_ord", v)).orElse(Ordinals.FIRST);
        if (next < Ordinals.FIRST) {
            throw new StoreCorruptionException("m:next_ord is " + next + "; ordinals start at 1");
        }
        Map<String, Long> ords = new HashMap<>();
        byte[] hi = OrdByTenantKey.FAMILY.hi();
        try (Scan scan = store.scan(ColumnFamilies.TENANTS, KeyRange.of(OrdByTenantKey.FAMILY.lo(),
                Arrays.copyOf(hi, hi.length + 1)))) {
            while (true) {
                if (!scan.hasNext()) {
                    throw new StoreCorruptionException("the tenant_ords family ended without its hi sentinel (a scan "
                            + "ended early, or the sentinel was lost)");
                }
                KeyValue kv = scan.next();
                if (Arrays.equals(kv.key(), hi)) {
                    break;
                }
                String tenant;
                try {
                    tenant = OrdByTenantKey.decode(kv.key()).tenant();
                } catch (KeyFormatException e) {
                    continue; // the lo sentinel or a stray key: no lookup by tenant id ever reads it
                }
                ords.put(tenant, OrdByTenantKey.decodeValue(kv.value()));
            }
        }
        return new RunOrdinals(ords, next, stored.isPresent(), directoryTenants);
    }

    /** Tenants with an ordinal in the store when the run started: {@code m:next_ord - 1}. */
    long storedCount() {
        return storedNext - 1;
    }

    /** The ordinal of {@code tenant}, allocating the next one (in this step) if it has none. */
    long ord(String tenant) {
        Long ord = ords.get(tenant);
        if (ord != null) {
            return ord;
        }
        if (nextOrd > Ordinals.MAX) {
            throw new IllegalStateException("no tenant ordinal left for tenant '" + tenant + "' (ordinals end at "
                    + Ordinals.MAX + ")");
        }
        long allocatedOrd = nextOrd++;
        ords.put(tenant, allocatedOrd);
        allocated.add(tenant);
        return allocatedOrd;
    }

    /** The ordinal of the directory's tenant {@code index} named {@code tenant}, cached by index. */
    long ordOfIndex(int index, String tenant) {
        long ord = byIndex[index];
        if (ord == 0) {
            ord = ord(tenant);
            byIndex[index] = ord;
        }
        return ord;
    }

    /** The next ordinal after the allocations so far. */
    long nextOrd() {
        return nextOrd;
    }

    /** Ordinals this step allocated. */
    int allocatedInStep() {
        return allocated.size();
    }

    /**
     * Adds the {@code ?t}, {@code ?n} and {@code m:next_ord} puts of this step's allocations (none if it allocated
     * none).
     */
    void writeTo(DeliveryBatch batch) {
        if (allocated.isEmpty()) {
            return;
        }
        for (String tenant : allocated) {
            long ord = ords.get(tenant);
            batch.put(ColumnFamilies.TENANTS, new TenantByOrdKey(ord).encode(), TenantByOrdKey.value(tenant));
            batch.put(ColumnFamilies.TENANTS, new OrdByTenantKey(tenant).encode(), OrdByTenantKey.value(ord));
        }
        batch.put(ColumnFamilies.DEFAULT, MetaKeys.NEXT_ORD, MetaKeys.u32Value(nextOrd));
        nextOrdWritten = true;
    }

    /**
     * Whether {@code m:next_ord} is in the store once the batches written so far are committed:
     * it was there when the run started, or a step put it. (Known here, so the finish step need not
     * read it while the runner may still be committing the step before.)
     */
    boolean nextOrdWritten() {
        return nextOrdWritten;
    }

    /** The step that allocated was committed: its ordinals are stored ones now. */
    void stepCommitted() {
        allocated.clear();
        nextBeforeStep = nextOrd;
        writtenBeforeStep = nextOrdWritten;
    }

    /**
     * The current step is computed again (its batch was not committed, or its commit failed and
     * may or may not have landed): forget its allocations, so that it allocates the same ordinals
     * to the same tenants again, in the same first-sight order.
     */
    void rollBackStep() {
        allocated.forEach(ords::remove);
        allocated.clear();
        for (int i = 0; i < byIndex.length; i++) {
            if (byIndex[i] >= nextBeforeStep) {
                byIndex[i] = 0;
            }
        }
        nextOrd = nextBeforeStep;
        nextOrdWritten = writtenBeforeStep;
    }
}
