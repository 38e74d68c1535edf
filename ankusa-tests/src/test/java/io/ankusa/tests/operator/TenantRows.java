package io.ankusa.tests.operator;

import io.ankusa.keys.ActiveKey;
import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ClearedKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.CounterKey;
import io.ankusa.keys.DeadByTenantKey;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.DedupeExpiryKey;
import io.ankusa.keys.DedupeKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.KeyFamilies;
import io.ankusa.keys.KeyFamily;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.keys.Prefixes;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.store.Bytes;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Every stored entry attributed to the tenant it belongs to, read straight from the store: index
 * keys by the ordinal in their key or value, hooks, delivery rows and cleared markers by the
 * owner of their seq, counters by their ordinal, dedupe entries and ordinals by tenant id. A test
 * takes the entries of some tenants before and after an operation and compares them byte for byte.
 */
final class TenantRows {

    private TenantRows() {
    }

    /**
     * The entries (as {@code family key = value} hex lines) that belong to one of {@code ords}.
     *
     * @param ownerOfSeq the tenant ordinal of a hook seq
     * @param ordOfName  the ordinal of a tenant id
     */
    static List<String> of(Store store, Set<Long> ords, LongFunction<Long> ownerOfSeq, Map<String, Long> ordOfName) {
        List<String> out = new ArrayList<>();
        for (String family : ColumnFamilies.ALL) {
            try (Scan scan = store.scan(family, KeyRange.all())) {
                while (scan.hasNext()) {
                    KeyValue kv = scan.next();
                    if (isSentinel(family, kv.key())) {
                        continue;
                    }
                    OptionalLong owner = owner(family, kv, ownerOfSeq, ordOfName);
                    if (owner.isPresent() && ords.contains(owner.getAsLong())) {
                        out.add(family + " " + Bytes.hex(kv.key()) + " = " + Bytes.hex(kv.value()));
                    }
                }
            }
        }
        return out;
    }

    private static boolean isSentinel(String family, byte[] key) {
        for (KeyFamily f : KeyFamilies.ALL) {
            if (f.columnFamily().equals(family) && f.isSentinel(key)) {
                return true;
            }
        }
        return false;
    }

    private static OptionalLong owner(String family, KeyValue kv, LongFunction<Long> ownerOfSeq, Map<String, Long> ordOfName) {
        byte[] key = kv.key();
        return switch (family) {
            case ColumnFamilies.HOOKS -> OptionalLong.of(ownerOfSeq.apply(HookKey.decode(key).seq()));
            case ColumnFamilies.DELIVERIES -> OptionalLong.of(ownerOfSeq.apply(DeliveryKey.decode(key).seq()));
            case ColumnFamilies.COUNTERS -> OptionalLong.of(CounterKey.decode(key).ord());
            case ColumnFamilies.TENANTS -> key[0] == Prefixes.TENANT_BY_ORD
                    ? OptionalLong.of(TenantByOrdKey.decode(key).ord())
                    : OptionalLong.of(ordOfName.get(OrdByTenantKey.decode(key).tenant()));
            case ColumnFamilies.INDEX -> indexOwner(kv, ownerOfSeq, ordOfName);
            default -> OptionalLong.empty();
        };
    }

    private static OptionalLong indexOwner(KeyValue kv, LongFunction<Long> ownerOfSeq, Map<String, Long> ordOfName) {
        byte[] key = kv.key();
        return switch (key[0]) {
            case Prefixes.DUE -> OptionalLong.of(DueKey.decode(key).ord());
            case Prefixes.INFLIGHT -> OptionalLong.of(InflightKey.decode(key).ord());
            case Prefixes.DEAD -> OptionalLong.of(DeadKey.decodeValue(kv.value()).ord());
            case Prefixes.DEAD_BY_TENANT -> OptionalLong.of(DeadByTenantKey.decode(key).ord());
            case Prefixes.ACTIVE -> OptionalLong.of(ActiveKey.decode(key).ord());
            case Prefixes.QUARANTINE -> OptionalLong.of(io.ankusa.keys.QuarantineKey.decode(key).ord());
            case Prefixes.ATTEMPTS -> OptionalLong.of(io.ankusa.keys.AttemptKey.ordOf(key));
            case Prefixes.ENDPOINT -> OptionalLong.of(io.ankusa.keys.EndpointKey.decode(key).ord());
            case Prefixes.ARCHIVE -> OptionalLong.of(ArchiveKey.decodeValue(kv.value()).ord());
            case Prefixes.CLEARED -> OptionalLong.of(ownerOfSeq.apply(ClearedKey.decode(key).seq()));
            case Prefixes.DEDUPE -> OptionalLong.of(ordOfName.get(DedupeKey.decode(key).tenant()));
            case Prefixes.DEDUPE_EXPIRY -> OptionalLong.of(ordOfName.get(DedupeExpiryKey.decode(key).tenant()));
            default -> throw new AssertionError("index key of no known family: " + Bytes.hex(key));
        };
    }
}
