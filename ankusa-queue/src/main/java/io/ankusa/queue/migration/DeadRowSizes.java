package io.ankusa.queue.migration;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.queue.deliveries.DeliveryRow;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sizes of one step's dead rows, from their delivery rows (one multi-get): a format-2 dead
 * value does not carry the size the {@code bytes} counter needs. A delivery row that is gone or
 * does not decode counts 0 bytes, as the fold of the families does.
 */
final class DeadRowSizes {

    private final Map<DeliveryKey, Long> sizes;
    private final int unreadable;

    private DeadRowSizes(Map<DeliveryKey, Long> sizes, int unreadable) {
        this.sizes = sizes;
        this.unreadable = unreadable;
    }

    static DeadRowSizes read(Store store, List<OldRow> rows) {
        List<DeliveryKey> keys = rows.stream().filter(OldRow.Dead.class::isInstance).map(OldRow.Dead.class::cast)
                .map(DeadRowSizes::keyOf).toList();
        Map<DeliveryKey, Long> sizes = new HashMap<>();
        int unreadable = 0;
        if (!keys.isEmpty()) {
            List<Optional<byte[]>> values = store.multiGet(ColumnFamilies.DELIVERIES,
                    keys.stream().map(DeliveryKey::encode).toList());
            for (int i = 0; i < keys.size(); i++) {
                long size = 0;
                try {
                    if (values.get(i).isPresent()) {
                        size = DeliveryRow.decode(values.get(i).get()).size();
                    } else {
                        unreadable++;
                    }
                } catch (StoreCorruptionException e) {
                    unreadable++;
                }
                sizes.put(keys.get(i), size);
            }
        }
        return new DeadRowSizes(sizes, unreadable);
    }

    /** The size of {@code dead}'s delivery row (0 when it could not be read). */
    long sizeOf(OldRow.Dead dead) {
        return sizes.getOrDefault(keyOf(dead), 0L);
    }

    /** Dead rows whose delivery row was gone or did not decode. */
    int unreadable() {
        return unreadable;
    }

    private static DeliveryKey keyOf(OldRow.Dead dead) {
        return new DeliveryKey(dead.seq(), dead.sink());
    }
}
