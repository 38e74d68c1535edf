package io.ankusa.queue.intake;

import io.ankusa.api.IntakePosition;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.MetaKeys;
import io.ankusa.queue.deliveries.DeliveryBatch;
import io.ankusa.store.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The intake positions of one ingest batch ({@code m:intake:<source>}), put in the batch that
 * holds their hooks so that a hook and the position it was read from land together or not at all;
 * and the read of a source's last written position.
 */
public final class IntakePositions {

    private final Map<String, IntakePosition> last = new LinkedHashMap<>();

    /** Notes that the hook read from {@code position} was accepted into the batch being built. */
    void accepted(IntakePosition position) {
        // A source's positions rise in submit order, so the batch's last one per source is its highest.
        last.put(position.source(), position);
    }

    /** Puts the batch's positions into {@code ops}. */
    void writeTo(DeliveryBatch ops) {
        for (IntakePosition position : last.values()) {
            ops.put(ColumnFamilies.DEFAULT, MetaKeys.intake(position.sourceBytes()),
                    MetaKeys.u64Value(position.offset()));
        }
    }

    /** The last position written for {@code position}'s source (its offset is ignored), if any. */
    public static OptionalLong read(Store store, IntakePosition position) {
        return store.get(ColumnFamilies.DEFAULT, MetaKeys.intake(position.sourceBytes()))
                .map(v -> OptionalLong.of(MetaKeys.decodeU64("m:intake:" + position.source(), v)))
                .orElse(OptionalLong.empty());
    }
}
