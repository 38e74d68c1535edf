package io.ankusa.queue.migration;

import io.ankusa.api.QueueConfig;
import io.ankusa.api.StoreFormatNewerException;
import io.ankusa.keys.AttemptKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.KeyFamilies;
import io.ankusa.keys.KeyFamily;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.EndpointKey;
import io.ankusa.keys.OrderKey;
import io.ankusa.keys.QuarantineKey;
import io.ankusa.keys.RegistryKey;
import io.ankusa.keys.StoreFormat;
import io.ankusa.queue.deliveries.AttemptHistory;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.WriteBatch;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Brings an opened store to format 3 before anything reads or writes it.
 *
 * <ul>
 * <li>A store stamped newer than {@link StoreFormat#CURRENT} is refused with
 *     {@link StoreFormatNewerException} before anything is written.</li>
 * <li>A new store (no stamp, no data) gets every family's lo/hi sentinels, {@code m:format = 3},
 *     {@code m:next_ord = 1} and {@code m:last_seq = 0} in one synced batch.</li>
 * <li>An older store first gets every format-3 family's sentinels (the migration writes into
 *     them), then is handed to {@link Migrations#upgrade}, which stamps the new format when done
 *     (or refuses when no migration is registered).</li>
 * <li>A store with data but no stamp is refused as corrupt.</li>
 * <li>A format-3 store written before a family was added to format 3 (the quarantine) gets that
 *     family's sentinels: an additive family needs no new format number, because an older
 *     release never reads its keys.</li>
 * <li>A store whose counters do not cover its attempt history yet (no {@code m:history_counted}:
 *     written before the {@code history_bytes} counter) has its history counted, one scan
 *     ({@link AttemptHistory#countIfUncounted}); a new store, and an older format's store (which
 *     has no history) with its format-3 sentinels, is stamped as counted.</li>
 * </ul>
 */
public final class FormatGuard {

    private FormatGuard() {
    }

    /** The stamped format, if any. */
    public static OptionalInt stamp(Store store) {
        Optional<byte[]> raw = store.get(ColumnFamilies.DEFAULT, MetaKeys.FORMAT);
        return raw.isEmpty() ? OptionalInt.empty() : OptionalInt.of((int) MetaKeys.decodeU32("m:format", raw.get()));
    }

    /**
     * Refuses a store stamped newer than {@code supported} with {@link StoreFormatNewerException},
     * before anything is written. The fence of the rollback boundary: a release that writes format
     * 2 calls this with 2 and refuses a format-3 store.
     */
    public static void requireNotNewer(Store store, int supported) {
        OptionalInt stamp = stamp(store);
        if (stamp.isPresent() && stamp.getAsInt() > supported) {
            throw new StoreFormatNewerException(stamp.getAsInt(), supported);
        }
    }

    /**
     * Checks, creates or upgrades; returns the format the store is at afterwards (always {@link StoreFormat#CURRENT}).
     */
    public static int prepare(Store store, Migrations migrations, QueueConfig config) {
        requireNotNewer(store, StoreFormat.CURRENT);
        OptionalInt stamp = stamp(store);
        if (stamp.isEmpty()) {
            if (holdsData(store)) {
                throw new StoreCorruptionException("store " + store.directory()
                        + " holds data but has no format stamp");
            }
            WriteBatch batch = sentinels();
            batch.put(ColumnFamilies.DEFAULT, MetaKeys.FORMAT, MetaKeys.u32Value(StoreFormat.CURRENT));
            batch.put(ColumnFamilies.DEFAULT, MetaKeys.NEXT_ORD, MetaKeys.u32Value(1));
            batch.put(ColumnFamilies.DEFAULT, MetaKeys.LAST_SEQ, MetaKeys.u64Value(0));
            batch.put(ColumnFamilies.DEFAULT, MetaKeys.HISTORY_COUNTED, MetaKeys.u32Value(1));
            store.commit(batch, Durability.SYNC);
            return StoreFormat.CURRENT;
        }
        int found = stamp.getAsInt();
        if (found == StoreFormat.CURRENT) {
            addFamilies(store);
            // A store written before the history_bytes counter: one scan of its history, once.
            AttemptHistory.countIfUncounted(store);
        }
        if (found < StoreFormat.CURRENT) {
            // An older format has no attempt history: its (zero) history bytes are counted as they stand.
            WriteBatch batch = sentinels();
            batch.put(ColumnFamilies.DEFAULT, MetaKeys.HISTORY_COUNTED, MetaKeys.u32Value(1));
            store.commit(batch, Durability.SYNC);
            migrations.upgrade(store, found, StoreFormat.CURRENT, config);
            int after = stamp(store).orElse(found);
            if (after != StoreFormat.CURRENT) {
                throw new StoreCorruptionException("migration from format " + found + " ended at format " + after);
            }
        }
        return StoreFormat.CURRENT;
    }

    /** Families added to format 3 after it shipped; their sentinels are written when missing. */
    private static final List<KeyFamily> ADDED = List.of(QuarantineKey.FAMILY, AttemptKey.FAMILY, EndpointKey.FAMILY,
            OrderKey.FAMILY, RegistryKey.FAMILY);

    private static void addFamilies(Store store) {
        WriteBatch batch = new WriteBatch();
        for (KeyFamily family : ADDED) {
            if (store.get(family.columnFamily(), family.lo()).isEmpty()
                    || store.get(family.columnFamily(), family.hi()).isEmpty()) {
                batch.put(family.columnFamily(), family.lo(), new byte[0]);
                batch.put(family.columnFamily(), family.hi(), new byte[0]);
            }
        }
        if (!batch.isEmpty()) {
            store.commit(batch, Durability.SYNC);
        }
    }

    /** The lo/hi sentinels of every format-3 key family (counter sentinels as 0 merges). */
    public static WriteBatch sentinels() {
        WriteBatch batch = new WriteBatch();
        for (KeyFamily family : KeyFamilies.ALL) {
            for (byte[] key : List.of(family.lo(), family.hi())) {
                if (family.columnFamily().equals(ColumnFamilies.COUNTERS)) {
                    batch.merge(family.columnFamily(), key, 0);
                } else {
                    batch.put(family.columnFamily(), key, new byte[0]);
                }
            }
        }
        return batch;
    }

    private static boolean holdsData(Store store) {
        for (String family : List.of(ColumnFamilies.DEFAULT, ColumnFamilies.HOOKS, ColumnFamilies.DELIVERIES,
                ColumnFamilies.INDEX, ColumnFamilies.TENANTS)) {
            try (Scan scan = store.scan(family, KeyRange.all())) {
                if (scan.hasNext()) {
                    return true;
                }
            }
        }
        return false;
    }
}
