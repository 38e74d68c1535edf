package io.ankusa.queue.deliveries;

import io.ankusa.keys.Ordinals;
import java.util.Objects;

/**
 * A change of one tenant's counter, as returned by an op builder. Never for ordinal 0: the
 * aggregate is derived by {@link Counters#ops}.
 *
 * @param ord   tenant ordinal (1..0xFFFFFFFE)
 * @param field which counter
 * @param delta the change (may be negative)
 */
public record CounterDelta(long ord, CounterField field, long delta) {

    /** Checks the ordinal is a tenant's. */
    public CounterDelta {
        Ordinals.requireTenant(ord);
        Objects.requireNonNull(field, "field");
    }
}
