package io.ankusa.queue.intake;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.MetaKeys;
import io.ankusa.store.Direction;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;

/**
 * Recovers the highest seq ever assigned: the larger of {@code m:last_seq} and the last hook key
 * (reclaim may have removed the newest hooks, so the hooks family alone could hand a seq out
 * twice).
 */
public final class LastSeq {

    private LastSeq() {
    }

    /** The highest seq assigned in {@code store} (0 for an empty store). */
    public static long recover(Store store) {
        long meta = store.get(ColumnFamilies.DEFAULT, MetaKeys.LAST_SEQ)
                .map(v -> MetaKeys.decodeU64("m:last_seq", v)).orElse(0L);
        long hooks = 0;
        byte[] hi = HookKey.FAMILY.hi();
        try (Scan scan = store.scan(ColumnFamilies.HOOKS, KeyRange.of(HookKey.FAMILY.lo(), hi), Direction.REVERSE)) {
            if (scan.hasNext()) {
                KeyValue kv = scan.next();
                if (!HookKey.FAMILY.isSentinel(kv.key())) {
                    hooks = HookKey.decode(kv.key()).seq();
                }
            }
        }
        try (Scan scan = store.scan(ColumnFamilies.HOOKS, KeyRange.atLeast(hi))) {
            if (!scan.hasNext()) {
                throw new StoreCorruptionException("hooks family lost its hi sentinel");
            }
        }
        return Math.max(meta, hooks);
    }
}
