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
 * The hooks of one migration step read from the store, when the run has no {@link HookDirectory}
 * (more hooks than it holds): one multi-get in seq order (unique by seq). The tenant is the
 * envelope's tenant id, else {@code "default"}; a hook that is gone or does not decode files its
 * rows under {@code "default"} too (the pipeline drops or dead-letters such rows when they come
 * due, through the normal counted path). Also reads the few envelopes a directory step needs
 * ({@link #envelopes}: dead rows whose value did not decode).
 */
final class HookTenants implements StepHooks {

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

    /** The decoded envelopes of the hooks {@code seqs} name that exist (read with one multi-get in seq order). */
    static Map<Long, HookEnvelope> envelopes(Store store, Collection<Long> seqs) {
        if (seqs.isEmpty()) {
            return Map.of();
        }
        Map<Long, HookEnvelope> envelopes = new HashMap<>();
        List<Long> wanted = List.copyOf(new TreeSet<>(seqs));
        List<Optional<byte[]>> raw = read(store, wanted);
        for (int i = 0; i < wanted.size(); i++) {
            int at = i;
            raw.get(i).ifPresent(bytes -> envelopes.put(wanted.get(at), HookEnvelope.decode(bytes)));
        }
        return envelopes;
    }

    private static List<Optional<byte[]>> read(Store store, List<Long> seqs) {
        return seqs.isEmpty() ? List.of()
                : store.multiGet(ColumnFamilies.HOOKS, seqs.stream().map(seq -> new HookKey(seq).encode()).toList());
    }

    /** The tenant rows of hook {@code seq} are filed under. */
    String tenant(long seq) {
        return tenants.getOrDefault(seq, TenantIds.DEFAULT);
    }

    @Override
    public long ord(long seq, RunOrdinals ordinals) {
        return ordinals.ord(tenant(seq));
    }

    @Override
    public Optional<HookEnvelope> envelope(long seq) {
        return Optional.ofNullable(envelopes.get(seq));
    }

    @Override
    public OptionalLong envelopeSize(long seq) {
        Integer size = sizes.get(seq);
        return size == null ? OptionalLong.empty() : OptionalLong.of(size);
    }

    @Override
    public int missing() {
        return missing;
    }

    @Override
    public int undecodable() {
        return undecodable;
    }
}
