package io.ankusa.queue.intake;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.keys.Ordinals;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tenant ordinals: 1, 2, 3, … in first-sight order, never reused; 0 is the node aggregate.
 *
 * <p><b>Only the ingest writer allocates</b> (and the 2 → 3 migration, before anything serves).
 * The writer calls {@link #resolve} while assembling a batch: cached tenants cost nothing, the
 * batch's uncached tenants cost one multi-get of their {@link io.ankusa.keys.OrdByTenantKey ?n} rows, and
 * tenants with no row
 * get the next ordinals — unless that would pass {@code tenants.max}, in which case they are
 * refused (an existing tenant is never refused). The resolution's {@link io.ankusa.keys.TenantByOrdKey ?t},
 * {@link io.ankusa.keys.OrdByTenantKey ?n} and
 * {@code m:next_ord} puts ride in the <em>same</em> synced batch as the rows that use the new
 * ordinals, so an ordinal is never visible without its rows or the other way round.
 *
 * <p>The cache (tenant → ord, {@value #CACHE_CAPACITY} entries, cleared whole when full) is
 * written only after the commit of the batch that resolved it succeeded ({@link #committed}, on the
 * thread that committed it); any thread may read it. After a failed commit the in-memory next ordinal stays advanced
 * (an ordinal is never handed out twice, even if the failed commit did land) and nothing is cached.
 *
 * <p><b>Batches in flight.</b> The writer assembles the next batch while the previous one is
 * being written ({@link IngestCommitter}): {@link #handedOff} advances the next ordinal and keeps
 * the batch's new ordinals in a writer-only map that {@link #resolve} reads after the cache, so a
 * tenant first seen in a batch still being written keeps its ordinal in the next batch (which then
 * writes no {@code ?t}/{@code ?n} rows of its own for it). {@link #committed} moves them into the
 * cache; a failed batch fails every batch assembled on it, and {@link #abandonInFlight} forgets them.
 */
public final class TenantOrdinals {

    /** Entries in the writer's cache before it is cleared. */
    public static final int CACHE_CAPACITY = 65_536;

    private final Store store;
    private final long tenantsMax;
    private final Map<String, Long> cache = new ConcurrentHashMap<>();
    /** New ordinals of batches handed to the committer and not yet committed; writer thread only. */
    private final Map<String, Long> inFlight = new HashMap<>();
    private long nextOrd;

    private TenantOrdinals(Store store, long tenantsMax, long nextOrd) {
        this.store = store;
        this.tenantsMax = tenantsMax;
        this.nextOrd = nextOrd;
    }

    /** Loads {@code m:next_ord} (1 if absent). */
    public static TenantOrdinals load(Store store, long tenantsMax) {
        Objects.requireNonNull(store, "store");
        long next = store.get(ColumnFamilies.DEFAULT, MetaKeys.NEXT_ORD)
                .map(v -> MetaKeys.decodeU32("m:next_ord", v)).orElse(Ordinals.FIRST);
        if (next < Ordinals.FIRST) {
            throw new StoreCorruptionException("m:next_ord is " + next + "; ordinals start at 1");
        }
        return new TenantOrdinals(store, tenantsMax, next);
    }

    /**
     * Resolves the distinct {@code tenants} of a batch (writer thread only). Nothing changes until
     * {@link #committed} or {@link #abandoned}.
     */
    public Resolution resolve(Collection<String> tenants) {
        Map<String, Long> ords = new LinkedHashMap<>();
        List<String> misses = new ArrayList<>();
        for (String tenant : new LinkedHashSet<>(tenants)) {
            Long cached = cache.get(tenant);
            if (cached == null) {
                cached = inFlight.get(tenant);
            }
            if (cached != null) {
                ords.put(tenant, cached);
            } else {
                misses.add(tenant);
            }
        }
        Map<String, Long> found = new LinkedHashMap<>();
        Map<String, Long> allocated = new LinkedHashMap<>();
        List<String> refused = new ArrayList<>();
        long next = nextOrd;
        if (!misses.isEmpty()) {
            List<Optional<byte[]>> rows = store.multiGet(ColumnFamilies.TENANTS,
                    misses.stream().map(t -> new OrdByTenantKey(t).encode()).toList());
            for (int i = 0; i < misses.size(); i++) {
                String tenant = misses.get(i);
                if (rows.get(i).isPresent()) {
                    long ord = OrdByTenantKey.decodeValue(rows.get(i).get());
                    found.put(tenant, ord);
                    ords.put(tenant, ord);
                } else if (next - 1 < tenantsMax) {
                    allocated.put(tenant, next);
                    ords.put(tenant, next);
                    next++;
                } else {
                    refused.add(tenant);
                }
            }
        }
        return new Resolution(ords, found, allocated, refused, next);
    }

    /**
     * The batch of {@code resolution} was handed to the committer (writer thread): its new
     * ordinals are never handed out again, and later batches resolve its new tenants to them
     * until it is {@link #committed} or {@link #abandonInFlight abandoned}.
     */
    void handedOff(Resolution resolution) {
        nextOrd = Math.max(nextOrd, resolution.nextOrd());
        inFlight.putAll(resolution.allocated());
    }

    /**
     * The batch of {@code resolution}, {@link #handedOff handed off} before, committed: cache its
     * ordinals. Runs on the committer thread, before the batch's receipts can complete, so that
     * a producer holding its receipt finds its tenant cached.
     */
    void committed(Resolution resolution) {
        resolution.found().forEach(this::cache);
        resolution.allocated().forEach(this::cache);
    }

    /** The writer learnt that the batch of {@code resolution} committed: its new ordinals are in the cache now. */
    void landed(Resolution resolution) {
        resolution.allocated().forEach((tenant, ord) -> inFlight.remove(tenant, ord));
    }

    /** The batch of {@code resolution} failed: never hand its new ordinals out again, cache nothing. */
    public void abandoned(Resolution resolution) {
        nextOrd = Math.max(nextOrd, resolution.nextOrd());
        // Only this batch's own entries: after a failure the same tenant may be in flight again
        // under a newer ordinal, allocated by a batch of the next generation.
        resolution.allocated().forEach((tenant, ord) -> inFlight.remove(tenant, ord));
    }

    /**
     * A batch in flight failed, so every batch assembled after it fails too (writer thread):
     * forget every new ordinal not yet committed; none is handed out again.
     */
    void abandonInFlight() {
        inFlight.clear();
    }

    private void cache(String tenant, long ord) {
        if (cache.size() >= CACHE_CAPACITY) {
            cache.clear();
        }
        cache.put(tenant, ord);
    }

    /** Forgets {@code tenant}'s cached ordinal (writer thread; the tenant was erased). */
    public void forget(String tenant) {
        cache.remove(tenant);
    }

    /** Tenant {@code tenant}'s ordinal (any thread): from the cache, else one point read. */
    public OptionalLong ord(String tenant) {
        Long cached = cache.get(tenant);
        if (cached != null) {
            return OptionalLong.of(cached);
        }
        if (io.ankusa.keys.TenantIds.problem(tenant).isPresent()) {
            return OptionalLong.empty();
        }
        return store.get(ColumnFamilies.TENANTS, new OrdByTenantKey(tenant).encode())
                .map(v -> OptionalLong.of(OrdByTenantKey.decodeValue(v))).orElse(OptionalLong.empty());
    }

    /** The tenant id of {@code ord} (any thread); empty for an unknown or erased ordinal. */
    public Optional<String> name(long ord) {
        if (!isTenantOrd(ord)) {
            return Optional.empty();
        }
        return nameIn(store.get(ColumnFamilies.TENANTS, new TenantByOrdKey(ord).encode()));
    }

    /** The tenant ids of {@code ords} in one multi-get: those allocated and not erased. */
    public Map<Long, String> names(Collection<Long> ords) {
        List<Long> valid = new ArrayList<>(new LinkedHashSet<>(ords));
        valid.removeIf(ord -> !isTenantOrd(ord));
        if (valid.isEmpty()) {
            return Map.of();
        }
        List<Optional<byte[]>> values = store.multiGet(ColumnFamilies.TENANTS,
                valid.stream().map(ord -> new TenantByOrdKey(ord).encode()).toList());
        Map<Long, String> out = new HashMap<>();
        for (int i = 0; i < valid.size(); i++) {
            long ord = valid.get(i);
            nameIn(values.get(i)).ifPresent(n -> out.put(ord, n));
        }
        return out;
    }

    private static boolean isTenantOrd(long ord) {
        return ord >= Ordinals.FIRST && ord <= Ordinals.MAX;
    }

    /** The tenant id a stored {@code ?t} value names: none when absent or an erased tenant's tombstone. */
    private static Optional<String> nameIn(Optional<byte[]> value) {
        return value.map(TenantByOrdKey::decodeValue).filter(name -> !name.isEmpty());
    }

    /** How many ordinals were allocated: {@code m:next_ord - 1}, one point read. */
    public long tenantCount() {
        return store.get(ColumnFamilies.DEFAULT, MetaKeys.NEXT_ORD)
                .map(v -> MetaKeys.decodeU32("m:next_ord", v)).orElse(Ordinals.FIRST) - 1;
    }

    /** The configured cap. */
    public long tenantsMax() {
        return tenantsMax;
    }

    /** Entries currently cached (for tests and gauges). */
    public int cachedCount() {
        return cache.size();
    }
}
