package io.ankusa.tests.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.keys.ActiveKey;
import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.AttemptKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.CounterKey;
import io.ankusa.keys.DeadByTenantKey;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.KeyFamilies;
import io.ankusa.keys.KeyFamily;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.Prefixes;
import io.ankusa.keys.EndpointKey;
import io.ankusa.keys.OrderKey;
import io.ankusa.keys.QuarantineKey;
import io.ankusa.queue.deliveries.DeliveryRow;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.spi.CounterCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A test-only fold of the index families, read straight from the store (no queue code): what
 * the counters must equal. Also checks the structural invariants the counters rest on: every
 * family between its sentinels, every delivery row with exactly one index key, every due row
 * with its active marker, every {@code ?x} with its {@code ?X}, every ordered due or inflight row
 * with its {@code ?O} key and every {@code ?O} key with an ordered due or inflight row.
 */
public final class IndexFold {

    /** Field numbers 1..8 as array indexes. */
    private final Map<Long, long[]> byOrd = new TreeMap<>();
    private final Set<ActiveKey> markers = new HashSet<>();
    private final Set<ActiveKey> markersNeeded = new HashSet<>();
    private final List<String> problems = new ArrayList<>();

    private IndexFold() {
    }

    /** Folds {@code store}. */
    public static IndexFold of(Store store) {
        IndexFold fold = new IndexFold();
        fold.checkSentinels(store);
        fold.foldIndex(store);
        return fold;
    }

    private long[] fields(long ord) {
        return byOrd.computeIfAbsent(ord, o -> new long[CounterKey.LAST_FIELD + 1]);
    }

    private void checkSentinels(Store store) {
        for (KeyFamily family : KeyFamilies.ALL) {
            KeySpan span = family.withSentinels();
            byte[] first = null;
            byte[] last = null;
            try (Scan scan = store.scan(family.columnFamily(), KeyRange.of(span.from(), span.to()))) {
                while (scan.hasNext()) {
                    byte[] key = scan.next().key();
                    if (first == null) {
                        first = key;
                    }
                    last = key;
                }
            }
            if (first == null && (family.equals(QuarantineKey.FAMILY) || family.equals(io.ankusa.keys.AttemptKey.FAMILY) || family.equals(EndpointKey.FAMILY)
                    || family.equals(OrderKey.FAMILY) || family.equals(io.ankusa.keys.RegistryKey.FAMILY))) {
                continue; // added to format 3 later: a store written before has none until an open writes them
            }
            if (first == null || !Arrays.equals(first, family.lo()) || !Arrays.equals(last, family.hi())) {
                problems.add("family " + family.name() + " is not bounded by its sentinels");
            }
        }
    }

    private void foldIndex(Store store) {
        Map<DeliveryKey, String> owners = new HashMap<>();
        Set<OrderKey> orderNeeded = new HashSet<>();
        Set<DeadByTenantKey> byTenant = new HashSet<>();
        Set<DeadByTenantKey> byTenantNeeded = new HashSet<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.all())) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                byte[] key = kv.key();
                byte prefix = key[0];
                if (prefix == Prefixes.DUE && !DueKey.FAMILY.isSentinel(key)) {
                    DueKey k = DueKey.decode(key);
                    DueKey.Value v = DueKey.decodeValue(kv.value());
                    fields(k.ord())[v.kind() == DueKey.KIND_RETRY ? 2 : 1]++;
                    fields(k.ord())[5] += v.size();
                    own(owners, new DeliveryKey(k.seq(), k.sink()), "due");
                    markersNeeded.add(ActiveKey.forDue(k.ord(), k.at()));
                    if (v.group() != DueKey.UNORDERED) {
                        orderNeeded.add(new OrderKey(k.ord(), k.sink(), v.group(), k.seq()));
                    }
                } else if (prefix == Prefixes.INFLIGHT && !InflightKey.FAMILY.isSentinel(key)) {
                    InflightKey k = InflightKey.decode(key);
                    fields(k.ord())[3]++;
                    fields(k.ord())[5] += InflightKey.decodeValue(kv.value());
                    own(owners, new DeliveryKey(k.seq(), k.sink()), "inflight");
                    long group = InflightKey.decodeGroup(kv.value());
                    if (group != DueKey.UNORDERED) {
                        orderNeeded.add(new OrderKey(k.ord(), k.sink(), group, k.seq()));
                    }
                } else if (prefix == Prefixes.DEAD && !DeadKey.FAMILY.isSentinel(key)) {
                    DeadKey k = DeadKey.decode(key);
                    long ord = DeadKey.decodeValue(kv.value()).ord();
                    fields(ord)[4]++;
                    DeliveryKey row = new DeliveryKey(k.seq(), k.sink());
                    own(owners, row, "dead");
                    fields(ord)[5] += store.get(ColumnFamilies.DELIVERIES, row.encode())
                            .map(v -> DeliveryRow.decode(v).size()).orElse(0L);
                    byTenantNeeded.add(new DeadByTenantKey(ord, k.at(), k.seq(), k.sink()));
                } else if (prefix == Prefixes.DEAD_BY_TENANT && !DeadByTenantKey.FAMILY.isSentinel(key)) {
                    byTenant.add(DeadByTenantKey.decode(key));
                } else if (prefix == Prefixes.ARCHIVE && !ArchiveKey.FAMILY.isSentinel(key)) {
                    ArchiveKey.decode(key);
                    fields(ArchiveKey.decodeValue(kv.value()).ord())[6]++;
                } else if (prefix == Prefixes.QUARANTINE && !QuarantineKey.FAMILY.isSentinel(key)) {
                    QuarantineKey k = QuarantineKey.decode(key);
                    fields(k.ord())[7]++;
                    fields(k.ord())[5] += QuarantineKey.decodeValue(kv.value()).size();
                    own(owners, new DeliveryKey(k.seq(), k.sink()), "quarantined");
                } else if (prefix == Prefixes.ACTIVE && !ActiveKey.FAMILY.isSentinel(key)) {
                    markers.add(ActiveKey.decode(key));
                } else if (prefix == Prefixes.ATTEMPTS && !AttemptKey.FAMILY.isSentinel(key)) {
                    // history_bytes: key and value bytes of every history key (by tenant, by hook, slot).
                    fields(AttemptKey.ordOf(key))[8] += key.length + kv.value().length;
                } else if (prefix == Prefixes.ENDPOINT && !EndpointKey.FAMILY.isSentinel(key)) {
                    // Endpoint states are not counted; a key or value that does not decode is a problem.
                    try {
                        EndpointKey.decode(key);
                        EndpointKey.decodeValue(kv.value());
                    } catch (RuntimeException e) {
                        problems.add("endpoint state does not decode: " + e.getMessage());
                    }
                }
            }
        }
        Set<OrderKey> order = new HashSet<>();
        try (Scan scan = store.scan(ColumnFamilies.ORDERING, KeyRange.of(OrderKey.FAMILY.between().from(),
                OrderKey.FAMILY.between().to()))) {
            while (scan.hasNext()) {
                order.add(OrderKey.decode(scan.next().key()));
            }
        }
        if (!order.equals(orderNeeded)) {
            Set<OrderKey> stray = new HashSet<>(order);
            stray.removeAll(orderNeeded);
            Set<OrderKey> missing = new HashSet<>(orderNeeded);
            missing.removeAll(order);
            problems.add("?O keys without an ordered due or inflight row: " + stray + "; ordered rows without one: "
                    + missing);
        }
        if (!byTenant.equals(byTenantNeeded)) {
            problems.add("?X keys " + byTenant + " do not mirror ?x keys " + byTenantNeeded);
        }
        Set<DeliveryKey> rows = new HashSet<>();
        try (Scan scan = store.scan(ColumnFamilies.DELIVERIES, KeyRange.of(DeliveryKey.FAMILY.between().from(),
                DeliveryKey.FAMILY.between().to()))) {
            while (scan.hasNext()) {
                rows.add(DeliveryKey.decode(scan.next().key()));
            }
        }
        if (!rows.equals(owners.keySet())) {
            Set<DeliveryKey> unindexed = new TreeSet<>(java.util.Comparator.comparingLong(DeliveryKey::seq)
                    .thenComparingInt(DeliveryKey::sink));
            unindexed.addAll(rows);
            unindexed.removeAll(owners.keySet());
            Set<DeliveryKey> rowless = new HashSet<>(owners.keySet());
            rowless.removeAll(rows);
            problems.add("delivery rows without an index key: " + unindexed + "; index keys without a row: " + rowless);
        }
    }

    private void own(Map<DeliveryKey, String> owners, DeliveryKey row, String state) {
        String before = owners.put(row, state);
        if (before != null) {
            problems.add("delivery " + row + " has two index keys: " + before + " and " + state);
        }
    }

    /** Every counter row, read from the counters family (sentinels excluded): ord -> fields. */
    public static Map<Long, long[]> counters(Store store) {
        Map<Long, long[]> out = new TreeMap<>();
        try (Scan scan = store.scan(ColumnFamilies.COUNTERS, KeyRange.all())) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                if (CounterKey.FAMILY.isSentinel(kv.key())) {
                    continue;
                }
                CounterKey k = CounterKey.decode(kv.key());
                out.computeIfAbsent(k.ord(), o -> new long[CounterKey.LAST_FIELD + 1])[k.field()] = CounterCodec.decode(kv.value());
            }
        }
        return out;
    }

    /** The folded fields of {@code ord} (index 1..8; zeros if it has no rows). */
    public long[] of(long ord) {
        return byOrd.getOrDefault(ord, new long[CounterKey.LAST_FIELD + 1]).clone();
    }

    /** The sum over all tenants. */
    public long[] total() {
        long[] sum = new long[CounterKey.LAST_FIELD + 1];
        byOrd.values().forEach(f -> {
            for (int i = 1; i < f.length; i++) {
                sum[i] += f[i];
            }
        });
        return sum;
    }

    /** Due rows whose active marker is missing. */
    public Set<ActiveKey> missingMarkers() {
        Set<ActiveKey> missing = new HashSet<>(markersNeeded);
        missing.removeAll(markers);
        return missing;
    }

    /** Tenants that have a marker at or before {@code bucket}. */
    public Set<Long> markedTenantsUpTo(long bucket) {
        Set<Long> out = new TreeSet<>();
        markers.stream().filter(m -> m.bucket() <= bucket).forEach(m -> out.add(m.ord()));
        return out;
    }

    /** Asserts the structural invariants hold and every tenant's counters and the aggregate equal this fold. */
    public void assertCountersMatch(Store store) {
        assertThat(problems).as("structural invariants").isEmpty();
        Map<Long, long[]> counters = counters(store);
        Set<Long> ords = new TreeSet<>(byOrd.keySet());
        ords.addAll(counters.keySet());
        ords.remove(0L);
        for (long ord : ords) {
            long[] stored = counters.getOrDefault(ord, new long[CounterKey.LAST_FIELD + 1]);
            assertThat(Arrays.copyOfRange(stored, 1, 9))
                    .as("counters of tenant %d (pending, scheduled, inflight, dead, bytes, archive_pending, quarantined, "
                            + "history_bytes)", ord)
                    .containsExactly(Arrays.copyOfRange(of(ord), 1, 9));
        }
        long[] aggregate = counters.getOrDefault(0L, new long[CounterKey.LAST_FIELD + 1]);
        assertThat(Arrays.copyOfRange(aggregate, 1, 9)).as("aggregate counters (ord 0)")
                .containsExactly(Arrays.copyOfRange(total(), 1, 9));
    }

    /** Asserts every due row has its marker. */
    public void assertEveryDueRowHasAMarker() {
        assertThat(missingMarkers()).as("due rows without an active marker").isEmpty();
    }
}
