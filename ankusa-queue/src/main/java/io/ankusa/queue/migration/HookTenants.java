package io.ankusa.queue.migration;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.TenantIds;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The hooks of one migration step, read with one multi-get (unique by seq): whose rows are they?
 * The tenant is the envelope's tenant id, else {@code "default"}; a hook that is gone or does not
 * decode files its rows under {@code "default"} too (the pipeline drops or dead-letters such rows
 * when they come due, through the normal counted path).
 */
final class HookTenants {

    private final Map<Long, Optional<HookEnvelope>> envelopes;
    private final Map<Long, Integer> sizes;
    private final int missing;
    private final int undecodable;

    private HookTenants(Map<Long, Optional<HookEnvelope>> envelopes, Map<Long, Integer> sizes, int missing,
            int undecodable) {
        this.envelopes = envelopes;
        this.sizes = sizes;
        this.missing = missing;
        this.undecodable = undecodable;
    }

    static HookTenants read(Store store, Collection<Long> seqs) {
        List<Long> unique = List.copyOf(new LinkedHashSet<>(seqs));
        Map<Long, Optional<HookEnvelope>> envelopes = new HashMap<>();
        Map<Long, Integer> sizes = new HashMap<>();
        int missing = 0;
        int undecodable = 0;
        if (!unique.isEmpty()) {
            List<Optional<byte[]>> raw = store.multiGet(ColumnFamilies.HOOKS,
                    unique.stream().map(seq -> new HookKey(seq).encode()).toList());
            for (int i = 0; i < unique.size(); i++) {
                long seq = unique.get(i);
                Optional<HookEnvelope> envelope = Optional.empty();
                if (raw.get(i).isEmpty()) {
                    missing++;
                } else {
                    sizes.put(seq, raw.get(i).get().length);
                    try {
                        envelope = Optional.of(HookEnvelope.decode(raw.get(i).get()));
                    } catch (StoreCorruptionException e) {
                        undecodable++;
                    }
                }
                envelopes.put(seq, envelope);
            }
        }
        return new HookTenants(envelopes, sizes, missing, undecodable);
    }

    /** The tenant rows of hook {@code seq} are filed under. */
    String tenant(long seq) {
        return envelope(seq).map(e -> e.hook().tenant()).orElse(TenantIds.DEFAULT);
    }

    /** The decoded envelope, if the hook exists and decodes. */
    Optional<HookEnvelope> envelope(long seq) {
        return envelopes.getOrDefault(seq, Optional.empty());
    }

    /** The stored envelope's length in bytes (what a row's size is), if the hook exists. */
    OptionalLong envelopeSize(long seq) {
        Integer size = sizes.get(seq);
        return size == null ? OptionalLong.empty() : OptionalLong.of(size);
    }

    /** Hooks that were gone. */
    int missing() {
        return missing;
    }

    /** Hooks that did not decode. */
    int undecodable() {
        return undecodable;
    }
}
