package io.ankusa.testkit.store;

import io.ankusa.store.Bytes;
import io.ankusa.store.Direction;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.WriteBatch;
import io.ankusa.store.spi.CounterCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The reference a store is checked against in the model-based property: one {@link TreeMap} per
 * family ordered by {@link Bytes#compare}, counters held as {@code long}s. It states the SPI's
 * write semantics in the plainest code: ops apply in order, a merge onto an absent row starts from
 * zero, a range delete removes {@code [from, to)}.
 */
final class StoreModel {

    private final Map<String, FamilyKind> kinds = new LinkedHashMap<>();
    private final Map<String, TreeMap<byte[], byte[]>> values = new LinkedHashMap<>();
    private final Map<String, TreeMap<byte[], Long>> counters = new LinkedHashMap<>();

    StoreModel(List<FamilySpec> families) {
        for (FamilySpec spec : families) {
            kinds.put(spec.name(), spec.kind());
            if (spec.kind() == FamilyKind.COUNTER) {
                counters.put(spec.name(), new TreeMap<>(Bytes::compare));
            } else {
                values.put(spec.name(), new TreeMap<>(Bytes::compare));
            }
        }
    }

    /** Applies a batch the store accepted. */
    void apply(WriteBatch batch) {
        for (WriteBatch.Op op : batch.ops()) {
            SortedMap<byte[], ?> rows = rows(op.family());
            if (op instanceof WriteBatch.Put put) {
                values.get(put.family()).put(put.key().clone(), put.value().clone());
            } else if (op instanceof WriteBatch.Delete delete) {
                rows.remove(delete.key());
            } else if (op instanceof WriteBatch.DeleteRange range) {
                rows.subMap(range.from(), range.to()).clear();
            } else if (op instanceof WriteBatch.Merge merge) {
                counters.get(merge.family()).merge(merge.key().clone(), merge.delta(), Long::sum);
            }
        }
    }

    /** The {@code pick}-th present key of {@code family} (modulo its size), if it has any. */
    Optional<byte[]> presentKey(String family, int pick) {
        SortedMap<byte[], ?> rows = rows(family);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(rows.keySet().stream().skip(pick % rows.size()).findFirst().orElseThrow().clone());
    }

    Optional<byte[]> get(String family, byte[] key) {
        return Optional.ofNullable(values.get(family).get(key));
    }

    long counter(String family, byte[] key) {
        return counters.get(family).getOrDefault(key, 0L);
    }

    /** The rows of {@code range} in {@code direction}, counters encoded as a store returns them. */
    List<KeyValue> scan(String family, KeyRange range, Direction direction) {
        SortedMap<byte[], ?> rows = rows(family);
        SortedMap<byte[], ?> part = range.bounded() ? rows.subMap(range.from(), range.to())
                : rows.tailMap(range.from());
        List<KeyValue> out = new ArrayList<>(part.size());
        part.forEach((k, v) -> out.add(new KeyValue(k.clone(),
                v instanceof Long sum ? CounterCodec.encode(sum) : ((byte[]) v).clone())));
        if (direction == Direction.REVERSE) {
            Collections.reverse(out);
        }
        return out;
    }

    private SortedMap<byte[], ?> rows(String family) {
        return kinds.get(family) == FamilyKind.COUNTER ? counters.get(family) : values.get(family);
    }
}
