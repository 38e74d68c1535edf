package io.ankusa.queue.migration;

import io.ankusa.keys.TenantIds;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.store.Store;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A step's hooks looked up in the run's {@link HookDirectory}: no store read per row, no map per
 * step. Only the envelopes of dead rows whose value did not decode are read, with one multi-get.
 * Missing and undecodable hooks are counted per row.
 */
final class DirectoryHooks implements StepHooks {

    private final HookDirectory directory;
    private final Map<Long, HookEnvelope> envelopes;
    private int missing;
    private int undecodable;

    DirectoryHooks(HookDirectory directory, Store store, List<OldRow> rows) {
        this.directory = directory;
        List<Long> wanted = rows.stream()
                .filter(r -> r instanceof OldRow.Dead dead && dead.value().isEmpty())
                .map(r -> r.hookSeq().orElseThrow())
                .filter(seq -> {
                    int at = directory.indexOf(seq);
                    return at >= 0 && directory.tenantIndexAt(at) >= 0;
                })
                .toList();
        this.envelopes = HookTenants.envelopes(store, wanted);
    }

    @Override
    public long ord(long seq, RunOrdinals ordinals) {
        int at = directory.indexOf(seq);
        if (at < 0) {
            missing++;
            return ordinals.ord(TenantIds.DEFAULT);
        }
        int tenant = directory.tenantIndexAt(at);
        if (tenant < 0) {
            undecodable++;
            return ordinals.ord(TenantIds.DEFAULT);
        }
        return ordinals.ordOfIndex(tenant, directory.tenant(tenant));
    }

    @Override
    public OptionalLong envelopeSize(long seq) {
        int at = directory.indexOf(seq);
        return at < 0 ? OptionalLong.empty() : OptionalLong.of(directory.sizeAt(at));
    }

    @Override
    public Optional<HookEnvelope> envelope(long seq) {
        return Optional.ofNullable(envelopes.get(seq));
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
