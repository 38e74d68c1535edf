package io.ankusa.queue.upkeep;

import io.ankusa.api.AuditAction;
import io.ankusa.api.QuarantineResult;
import io.ankusa.queue.deliveries.Quarantine;
import io.ankusa.queue.intake.TenantOrdinals;
import io.ankusa.queue.ledger.QuarantinedRow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongFunction;

/**
 * An operator's release or purge of a tenant's quarantined deliveries through {@link Quarantine}
 * (chunk by chunk, each one synced batch with its counters), then one audit entry with what it
 * moved. An unknown tenant moves nothing and records nothing. Cut short by an exception, it still
 * tries to audit what it moved (marked {@code interrupted}); calling it again finishes the job.
 */
public final class AuditedQuarantine {

    private final TenantOrdinals ordinals;
    private final Quarantine quarantine;
    private final AuditLog audit;

    /** Over the queue's parts. */
    public AuditedQuarantine(TenantOrdinals ordinals, Quarantine quarantine, AuditLog audit) {
        this.ordinals = Objects.requireNonNull(ordinals, "ordinals");
        this.quarantine = Objects.requireNonNull(quarantine, "quarantine");
        this.audit = Objects.requireNonNull(audit, "audit");
    }

    /** Releases every quarantined delivery of {@code tenant} back to due (audited as {@code quarantine-release}). */
    public QuarantineResult release(String tenant, Optional<String> actor) {
        return run(tenant, actor, AuditAction.QUARANTINE_RELEASE,
                ord -> quarantine.releaseChunk(ord, Quarantine.CHUNK));
    }

    /** Purges every quarantined delivery of {@code tenant} (audited as {@code quarantine-purge}). */
    public QuarantineResult purge(String tenant, Optional<String> actor) {
        return run(tenant, actor, AuditAction.QUARANTINE_PURGE,
                ord -> quarantine.purgeChunk(ord, Quarantine.CHUNK));
    }

    private QuarantineResult run(String tenant, Optional<String> actor, AuditAction action,
            LongFunction<List<QuarantinedRow>> chunk) {
        Objects.requireNonNull(tenant, "tenant");
        OptionalLong ord = ordinals.ord(tenant);
        if (ord.isEmpty()) {
            return QuarantineResult.none(tenant);
        }
        long rows = 0;
        long bytes = 0;
        try {
            List<QuarantinedRow> last;
            do {
                last = chunk.apply(ord.getAsLong());
                rows += last.size();
                bytes += last.stream().mapToLong(QuarantinedRow::size).sum();
            } while (last.size() == Quarantine.CHUNK);
        } catch (RuntimeException e) {
            if (rows > 0) {
                try {
                    record(action, tenant, rows, bytes, true, actor);
                } catch (RuntimeException auditFailure) {
                    e.addSuppressed(auditFailure);
                }
            }
            throw e;
        }
        if (rows > 0) {
            record(action, tenant, rows, bytes, false, actor);
        }
        return new QuarantineResult(tenant, rows, bytes);
    }

    private void record(AuditAction action, String tenant, long rows, long bytes, boolean interrupted,
            Optional<String> actor) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("deliveries", rows);
        counts.put("bytes", bytes);
        if (interrupted) {
            counts.put("interrupted", 1L);
        }
        audit.append(action, tenant, counts, actor);
    }
}
