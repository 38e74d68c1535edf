package io.ankusa.queue.ledger;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A queue's storage ordinals: the number each tenant id is filed under, and back. Not on the public
 * {@code Queue} (ordinals are a storage detail); the dispatcher and the CLI read them here.
 */
public interface TenantDirectory {


    /**
     * A tenant's ordinal, if it has one.
     *
     * @param tenant the tenant id
     * @return its ordinal, or empty for a tenant never seen
     */
    OptionalLong ord(String tenant);

    /**
     * The tenant id of an ordinal, if allocated and not erased.
     *
     * @param ord the ordinal
     * @return the tenant id, or empty
     */
    Optional<String> name(long ord);

    /**
     * The tenant ids of {@code ords}, read together (the queue's directory reads them in one
     * multi-get); by default one {@link #name} each.
     *
     * @param ords the ordinals
     * @return the tenant id of each ordinal that is allocated and not erased; the others are absent
     */
    default Map<Long, String> names(Collection<Long> ords) {
        Map<Long, String> out = new HashMap<>();
        for (long ord : ords) {
            name(ord).ifPresent(n -> out.put(ord, n));
        }
        return out;
    }
}
