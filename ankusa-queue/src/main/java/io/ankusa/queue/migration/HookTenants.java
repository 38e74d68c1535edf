package io.ankusa.queue.migration;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.TenantIds;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The hooks of one migration step: whose rows are they? The tenant is the envelope's tenant id,
 * else {@code "default"}; a hook that is gone or does not decode files its rows under
 * {@code "default"} too (the pipeline drops or dead-letters such rows when they come due, through
 * the normal counted path). Looked up in the run's {@link HookDirectory}, or, when the hooks were
 * too many for one, read with one multi-get in seq order (unique by seq). Decoded envelopes are
 * kept only for the seqs a step asks for ({@link #envelope}: dead rows whose value did not decode).
 */
final class HookTenants {

    private final Map<Long, String> tenants;
    private final Map<Long, Integer> sizes;
    private final Map<Long, HookEnvelope> envelopes;
    private final int missing;
    private final int undecodable;

    private HookTenants(Map<Long, String> tenants, Map<Long, Integer> sizes, Map<Long, HookEnvelope> envelopes,
            int missing, int undecodable) {
        this.tenants = tenants;
        this.sizes = sizes;
        this.envelopes = envelopes;
        this.missing = missing;
        this.undecodable = undecodable;
    }

    /** Reads the hooks {@code seqs} name, in seq order. */
    static HookTenants read(Store store, Collection<Long> seqs) {
        List<Long> unique = List.copyOf(new TreeSet<>(seqs));
        Map<Long, String> tenants = new HashMap<>();
        Map<Long, Integer> sizes = new HashMap<>();
        Map<Long, HookEnvelope> envelopes = new HashMap<>();
        int missing = 0;
        int undecodable = 0;
        List<Optional<byte[]>> raw = read(store, unique);
        for (int i = 0; i < unique.size(); i++) {
            long seq = unique.get(i);
            if (raw.get(i).isEmpty()) {
                missing++;
                continue;
            }
            sizes.put(seq, raw.get(i).get().length);
            try {
                HookEnvelope envelope = HookEnvelope.decode(raw.get(i).get());
                envelopes.put(seq, envelope);
                tenants.put(seq, envelope.hook().tenant());
            } catch (StoreCorruptionException e) {
                undecodable++;
            }
        }
        return new HookTenants(tenants, sizes, envelopes, missing, undecodable);
    }

    /**
     * Looks the hooks {@code seqs} name up in {@code directory}; reads the envelopes of
     * {@code envelopeSeqs} (a subset) from the store.
     */
    static HookTenants lookUp(HookDirectory directory, Store store, Collection<Long> seqs, Collection<Long> envelopeSeqs) {
        Map<Long, String> tenants = new HashMap<>();
        Map<Long, Integer> sizes = new HashMap<>();
        int missing = 0;
        int undecodable = 0;
        for (long seq : new TreeSet<>(seqs)) {
            HookDirectory.Entry entry = directory.entry(seq);
            if (!entry.exists()) {
                missing++;
                continue;
            }
            sizes.put(seq, entry.size());
            if (entry.tenant().isPresent()) {
                tenants.put(seq, entry.tenant().get());
            } else {
                undecodable++;
            }
        }
        Map<Long, HookEnvelope> envelopes = new HashMap<>();
        List<Long> wanted = new TreeSet<>(envelopeSeqs).stream().filter(tenants::containsKey).toList();
        List<Optional<byte[]>> raw = read(store, wanted);
        for (int i = 0; i < wanted.size(); i++) {
            int at = i;
            raw.get(i).ifPresent(bytes -> envelopes.put(wanted.get(at), HookEnvelope.decode(bytes)));
        }
        return new HookTenants(tenants, sizes, envelopes, missing, undecodable);
    }

    private static List<Optional<byte[]>> read(Store store, List<Long> seqs) {
        return seqs.isEmpty() ? List.of()
                : store.multiGet(ColumnFamilies.HOOKS, seqs.stream().map(seq -> new HookKey(seq).encode()).toList());
    }

    /** The tenant rows of hook {@code seq} are filed under. */
    String tenant(long seq) {
        return tenants.getOrDefault(seq, TenantIds.DEFAULT);
    }

    /** The decoded envelope, if the hook exists, decodes, and was read. */
    Optional<HookEnvelope> envelope(long seq) {
        return Optional.ofNullable(envelopes.get(seq));
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
