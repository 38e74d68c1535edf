package io.ankusa.tests.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.keys.ClearedKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.keys.Prefixes;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.tests.queue.IndexFold;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * What the kill -9 test checks on a store a crash left behind, read straight from the store (no
 * queue code but the envelope codec):
 * <ul>
 * <li>ordinals: {@code ?t} and {@code ?n} are one bijection, the ordinals are exactly
 *     1 .. {@code m:next_ord} − 1 (no ordinal allocated twice, none visible without its rows);</li>
 * <li>every acknowledged hook is there (its envelope, with its id and tenant, at its receipt's
 *     seq) and each of its sinks has a delivery row filed under the tenant's ordinal — due,
 *     inflight or dead — or, when a dispatcher ran, was delivered (row gone, cleared marker left);</li>
 * <li>the counters equal a fold of the index ({@link IndexFold}: every tenant and the aggregate,
 *     every delivery row with exactly one index key, every due row with its marker).</li>
 * </ul>
 */
final class CrashAudit {

    /** Where a delivery row's index key is. */
    enum State { DUE_FIRST, DUE_RETRY, INFLIGHT, DEAD }

    /** A delivery's index key, decoded. */
    record Location(State state, long ord) {
    }

    private final Store store;
    private final Map<String, Long> ordByTenant = new HashMap<>();
    private final Map<DeliveryKey, Location> index = new HashMap<>();
    private final Set<Long> cleared = new HashSet<>();
    private final Set<DeliveryKey> deliveryRows = new HashSet<>();

    private CrashAudit(Store store) {
        this.store = store;
    }

    /** Reads {@code store} and checks ordinals and counters; then {@link #assertAcked} checks hooks. */
    static CrashAudit of(Store store) {
        CrashAudit audit = new CrashAudit(store);
        audit.checkOrdinals();
        audit.readIndex();
        IndexFold fold = IndexFold.of(store);
        fold.assertCountersMatch(store);
        fold.assertEveryDueRowHasAMarker();
        return audit;
    }

    private void checkOrdinals() {
        Map<Long, String> byOrd = new TreeMap<>();
        scan(ColumnFamilies.TENANTS, TenantByOrdKey.FAMILY.between(),
                kv -> byOrd.put(TenantByOrdKey.decode(kv.key()).ord(), TenantByOrdKey.decodeValue(kv.value())));
        scan(ColumnFamilies.TENANTS, OrdByTenantKey.FAMILY.between(),
                kv -> ordByTenant.put(OrdByTenantKey.decode(kv.key()).tenant(), OrdByTenantKey.decodeValue(kv.value())));
        long next = store.get(ColumnFamilies.DEFAULT, MetaKeys.NEXT_ORD).map(v -> MetaKeys.decodeU32("m:next_ord", v))
                .orElseThrow(() -> new AssertionError("m:next_ord is missing"));
        assertThat(byOrd.keySet()).as("ordinals in ?t are exactly 1 .. m:next_ord - 1 (m:next_ord = %d)", next)
                .containsExactlyElementsOf(LongStream.range(1, next).boxed().toList());
        assertThat(byOrd.values()).as("no tenant id has two ordinals").doesNotHaveDuplicates();
        Map<String, Long> inverse = byOrd.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getValue, Map.Entry::getKey));
        assertThat(ordByTenant).as("?n is the inverse of ?t").isEqualTo(inverse);
    }

    private void readIndex() {
        try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.all())) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                byte[] key = kv.key();
                if (key[0] == Prefixes.DUE && !DueKey.FAMILY.isSentinel(key)) {
                    DueKey k = DueKey.decode(key);
                    boolean retry = DueKey.decodeValue(kv.value()).kind() == DueKey.KIND_RETRY;
                    locate(new DeliveryKey(k.seq(), k.sink()), retry ? State.DUE_RETRY : State.DUE_FIRST, k.ord());
                } else if (key[0] == Prefixes.INFLIGHT && !InflightKey.FAMILY.isSentinel(key)) {
                    InflightKey k = InflightKey.decode(key);
                    locate(new DeliveryKey(k.seq(), k.sink()), State.INFLIGHT, k.ord());
                } else if (key[0] == Prefixes.DEAD && !DeadKey.FAMILY.isSentinel(key)) {
                    DeadKey k = DeadKey.decode(key);
                    locate(new DeliveryKey(k.seq(), k.sink()), State.DEAD, DeadKey.decodeValue(kv.value()).ord());
                } else if (key[0] == Prefixes.CLEARED && !ClearedKey.FAMILY.isSentinel(key)) {
                    cleared.add(ClearedKey.decode(key).seq());
                }
            }
        }
        scan(ColumnFamilies.DELIVERIES, DeliveryKey.FAMILY.between(), kv -> deliveryRows.add(DeliveryKey.decode(kv.key())));
    }

    private void locate(DeliveryKey row, State state, long ord) {
        Location before = index.put(row, new Location(state, ord));
        assertThat(before).as("delivery %s has one index key", row).isNull();
    }

    /**
     * Every acknowledged hook is in the store with its id and tenant, and each sink's delivery is
     * filed under the tenant's ordinal in an allowed state, or was delivered if {@code delivered} is
     * allowed; or, when delivery is allowed, the hook is gone with every row, each of its sinks seen
     * called with it ({@code sent}: {@code "<hook id> <sink>"}): the settle that delivered its last
     * row deleted it.
     */
    void assertAcked(List<AckedHook> acked, Set<State> allowed, boolean deliveredAllowed, Set<String> sent) {
        List<String> problems = new ArrayList<>();
        for (AckedHook hook : acked) {
            Optional<byte[]> raw = store.get(ColumnFamilies.HOOKS, new HookKey(hook.seq()).encode());
            if (raw.isEmpty()) {
                if (!deliveredAllowed || !releasedAfterDelivery(hook, sent)) {
                    problems.add(hook + ": no hook envelope at its seq");
                }
                continue;
            }
            HookEnvelope envelope = HookEnvelope.decode(raw.get());
            if (!envelope.hook().id().equals(hook.id()) || !envelope.hook().tenant().equals(hook.tenant())) {
                problems.add(hook + ": seq holds hook " + envelope.hook().id() + " of " + envelope.hook().tenant());
                continue;
            }
            Long ord = ordByTenant.get(hook.tenant());
            if (ord == null) {
                problems.add(hook + ": tenant has no ordinal");
                continue;
            }
            for (int sink : hook.sinks()) {
                DeliveryKey row = new DeliveryKey(hook.seq(), sink);
                Location at = index.get(row);
                if (at == null) {
                    boolean delivered = deliveredAllowed && !deliveryRows.contains(row) && cleared.contains(hook.seq());
                    if (!delivered) {
                        problems.add(hook + ": sink " + sink + " has no index key"
                                + (deliveryRows.contains(row) ? " (its delivery row exists)" : " and no delivery row")
                                + (cleared.contains(hook.seq()) ? "" : ", no cleared marker"));
                    }
                } else if (at.ord() != ord) {
                    problems.add(hook + ": sink " + sink + " is filed under ordinal " + at.ord() + ", not " + ord);
                } else if (!allowed.contains(at.state())) {
                    problems.add(hook + ": sink " + sink + " is " + at.state() + ", allowed " + allowed);
                }
            }
        }
        assertThat(problems.subList(0, Math.min(problems.size(), 20)))
                .as("acknowledged hooks missing or misfiled: %d of %d acknowledged (first 20 shown)", problems.size(),
                        acked.size())
                .isEmpty();
    }

    /** Whether every sink of {@code hook} was sent it and none has a delivery row or an index key left. */
    private boolean releasedAfterDelivery(AckedHook hook, Set<String> sent) {
        for (int sink : hook.sinks()) {
            DeliveryKey row = new DeliveryKey(hook.seq(), sink);
            if (!sent.contains(hook.id() + " " + sink) || deliveryRows.contains(row) || index.containsKey(row)) {
                return false;
            }
        }
        return true;
    }

    /** The deliveries that are inflight, by delivery key. */
    Map<DeliveryKey, Location> inflight() {
        Map<DeliveryKey, Location> out = new HashMap<>();
        index.forEach((row, at) -> {
            if (at.state() == State.INFLIGHT) {
                out.put(row, at);
            }
        });
        return out;
    }

    /** Where {@code row}'s index key is, if it has one. */
    Optional<Location> location(DeliveryKey row) {
        return Optional.ofNullable(index.get(row));
    }

    /** {@code m:last_seq}. */
    long lastSeq() {
        return store.get(ColumnFamilies.DEFAULT, MetaKeys.LAST_SEQ).map(v -> MetaKeys.decodeU64("m:last_seq", v)).orElse(0L);
    }

    /** Tenant ordinals by id. */
    Map<String, Long> ordinals() {
        return Map.copyOf(ordByTenant);
    }

    private void scan(String family, KeySpan span, java.util.function.Consumer<KeyValue> each) {
        try (Scan scan = store.scan(family, KeyRange.of(span.from(), span.to()))) {
            scan.forEachRemaining(each);
        }
    }
}
