package io.ankusa.queue.upkeep;

import io.ankusa.api.AuditAction;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.queue.deliveries.PurgedRows;
import io.ankusa.queue.deliveries.TenantPurge;
import io.ankusa.queue.intake.TenantOrdinals;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * {@code purgeTenant}: removes a tenant's due rows, dead rows or both through {@link TenantPurge}
 * (chunks of {@value TenantPurge#CHUNK} rows, each one synced batch under the tenant's stripe, with
 * its cleared markers and counter deltas), then records one audit entry with what it removed.
 *
 * <ul>
 * <li>An unknown tenant has no rows: the result is empty, nothing is scanned or written.</li>
 * <li>Inflight rows are never touched; rows that arrive while a purge runs may survive it (a
 *     kind is done when a chunk comes back short).</li>
 * <li>Idempotent: a purge cut short (a store error, a crash) is finished by calling it again.
 *     Cut short by an exception, it still tries to audit what it did remove (marked
 *     {@code interrupted}); a crash leaves no audit entry for the chunks it committed.</li>
 * </ul>
 */
public final class AuditedPurge {

    private final TenantOrdinals ordinals;
    private final TenantPurge purge;
    private final AuditLog audit;

    /** A purge over the queue's parts. */
    public AuditedPurge(TenantOrdinals ordinals, TenantPurge purge, AuditLog audit) {
        this.ordinals = Objects.requireNonNull(ordinals, "ordinals");
        this.purge = Objects.requireNonNull(purge, "purge");
        this.audit = Objects.requireNonNull(audit, "audit");
    }

    /** Purges {@code kinds} of {@code tenant}'s rows, audited with {@code actor}; see the class comment. */
    public PurgeResult purge(String tenant, Set<PurgeKind> kinds, Optional<String> actor) {
        Objects.requireNonNull(tenant, "tenant");
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("name at least one kind to purge");
        }
        OptionalLong ord = ordinals.ord(tenant);
        if (ord.isEmpty()) {
            return PurgeResult.none(tenant);
        }
        Progress total = new Progress();
        try {
            if (kinds.contains(PurgeKind.PENDING)) {
                total.drain(ord.getAsLong(), o -> purge.purgeDueRows(o, TenantPurge.CHUNK));
            }
            if (kinds.contains(PurgeKind.DEAD)) {
                total.drain(ord.getAsLong(), o -> purge.purgeDeadRows(o, TenantPurge.CHUNK));
            }
        } catch (RuntimeException e) {
            if (total.sum.rows() > 0) {
                try {
                    record(tenant, total.sum, true, actor);
                } catch (RuntimeException auditFailure) {
                    e.addSuppressed(auditFailure);
                }
            }
            throw e;
        }
        PurgedRows sum = total.sum;
        record(tenant, sum, false, actor);
        return new PurgeResult(tenant, sum.pending(), sum.scheduled(), sum.dead(), sum.bytes());
    }

    /** What the committed chunks removed so far: kept up to date chunk by chunk, so an interruption knows. */
    private static final class Progress {
        private PurgedRows sum = PurgedRows.NONE;

        void drain(long ord, LongFunction<PurgedRows> chunk) {
            PurgedRows last;
            do {
                last = chunk.apply(ord);
                sum = sum.plus(last);
            } while (last.rows() == TenantPurge.CHUNK);
        }
    }

    private void record(String tenant, PurgedRows total, boolean interrupted, Optional<String> actor) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("pending", total.pending());
        counts.put("scheduled", total.scheduled());
        counts.put("dead", total.dead());
        counts.put("bytes", total.bytes());
        if (interrupted) {
            counts.put("interrupted", 1L);
        }
        audit.append(AuditAction.PURGE, tenant, counts, actor);
    }
}
