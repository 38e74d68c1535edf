package io.ankusa.queue.intake;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.MetaKeys;
import io.ankusa.store.Store;

/**
 * Reads the queue clock's last persisted "now" ({@code m:clock}), the floor a reopened queue
 * starts its clock from. The ingest writer is its single writer (in every ingest batch, and when
 * housekeeping or close asks on an idle queue).
 */
public final class PersistedClock {

    private PersistedClock() {
    }

    /** The persisted "now" of {@code store}, {@link Long#MIN_VALUE} when none was written. */
    public static long read(Store store) {
        return store.get(ColumnFamilies.DEFAULT, MetaKeys.CLOCK).map(v -> MetaKeys.decodeU64("m:clock", v))
                .orElse(Long.MIN_VALUE);
    }
}
