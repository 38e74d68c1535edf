package io.ankusa.queue.upkeep;

import io.ankusa.api.AuditAction;
import io.ankusa.api.ErasureResult;
import io.ankusa.queue.deliveries.TenantErasure;
import io.ankusa.queue.intake.IngestWriter;
import io.ankusa.queue.intake.TenantOrdinals;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@code eraseTenant}: fences the tenant at ingest, runs {@link TenantErasure} from its persisted
 * progress, lifts the fence (the id may come back as a new tenant with a new ordinal) and records
 * one audit entry naming the tenant and the counts, never the data.
 *
 * <ul>
 * <li>An unknown tenant (no {@link io.ankusa.keys.OrdByTenantKey ?n} row) is {@link ErasureResult#none}:
 * nothing is written and
 *     nothing audited.</li>
 * <li>The fence is a writer chore: when it completes, no batch holding a hook of the tenant can
 *     commit, and hooks of the tenant fail with {@code TenantErasingException} until the erase
 *     finishes. An erase cut short (an exception, a crash) keeps its marker; the queue fences the
 *     tenant again at open, and calling {@code eraseTenant} again finishes it.</li>
 * <li>One erase runs at a time on a node (they serialize here).</li>
 * </ul>
 */
public final class AuditedErasure {

    private final TenantOrdinals ordinals;
    private final IngestWriter writer;
    private final TenantErasure erasure;
    private final AuditLog audit;

    /** An erase over the queue's parts. */
    public AuditedErasure(TenantOrdinals ordinals, IngestWriter writer, TenantErasure erasure, AuditLog audit) {
        this.ordinals = Objects.requireNonNull(ordinals, "ordinals");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.erasure = Objects.requireNonNull(erasure, "erasure");
        this.audit = Objects.requireNonNull(audit, "audit");
    }

    /** Fences at ingest every tenant whose erase a crash or an error cut short (at open). */
    public void fenceUnfinished() {
        for (TenantErasure.Progress progress : erasure.inProgress()) {
            await(writer.fenceErasing(progress.tenant()));
        }
    }

    /** Erases {@code tenant}, audited with {@code actor}; see the class comment. */
    public synchronized ErasureResult erase(String tenant, Optional<String> actor) {
        Objects.requireNonNull(tenant, "tenant");
        OptionalLong ord = ordinals.ord(tenant);
        if (ord.isEmpty()) {
            return ErasureResult.none(tenant);
        }
        await(writer.fenceErasing(tenant));
        boolean resumed = erasure.progress(ord.getAsLong()).isPresent();
        TenantErasure.Progress start = erasure.begin(ord.getAsLong(), tenant);
        TenantErasure.Erased erased = erasure.run(start);
        await(writer.erased(tenant));
        Map<String, Long> counts = erased.counts();
        if (resumed) {
            counts.put("resumed", 1L);
        }
        audit.append(AuditAction.ERASE, tenant, counts, actor);
        return new ErasureResult(tenant, true, erased.pending(), erased.scheduled(), erased.inflight(), erased.dead(),
                erased.bytes(), erased.hooks(), erased.dedupeKeys(), erased.quarantined());
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }
}
