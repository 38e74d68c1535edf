package io.ankusa.queue.intake;

import io.ankusa.api.TenantOverloadedException;
import io.ankusa.api.TenantOverloadedException.Reason;
import io.ankusa.api.TenantPolicy;
import io.ankusa.queue.admission.PolicyCache;
import io.ankusa.queue.admission.TokenBucket;
import io.ankusa.queue.deliveries.CounterValues;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * Ingest admission (TEN-2), decided by the writer thread while it assembles a batch: a tenant's
 * {@link TenantPolicy#ingestRate() ingest rate} (a {@link TokenBucket} per tenant, one token per
 * hook), its {@link TenantPolicy#maxPendingRows() pending rows} and
 * {@link TenantPolicy#maxPendingBytes() pending bytes}, and the node-wide byte limit.
 *
 * <p><b>No read on the request path.</b> Only the writer thread calls this, with each hook's
 * tenant ordinal (resolved for the batch before admission). A tenant whose policy has no ingest
 * limit (the default) costs an array read and no counter read at all. A tenant with a pending
 * limit has an estimate of its pending rows and bytes: read from its counters on first use (one
 * multi-get on the writer thread), then raised by every hook the writer admits. Dispatch lowers
 * the counters concurrently, so the estimate is only ever too high: <b>the check is
 * conservative</b> — an admitted hook never takes the tenant past its limit as of the counters it
 * read. Before refusing, the writer reads the counters again (at most once per tenant per batch),
 * so a refusal is exact as of that batch: a tenant refused is over its limit then, not merely
 * over a stale estimate. Retries moving inflight rows back to due are dispatch's, not ingest's:
 * the limit bounds what ingest adds, not what retries return. The state is kept per ordinal for
 * every tenant ever admitted ({@link AdmissionSlots}: about 28 bytes a tenant with pending limits,
 * 4 with none), so with a million tenants a hook still costs no counter read once its tenant has
 * been seen.
 *
 * <p>The node-wide limit works the same way on the aggregate's {@code bytes} counter.
 */
final class IngestAdmission {

    /** A hook whose tenant has no ordinal (the tenant cap refuses it after admission). */
    static final long NO_ORDINAL = 0;

    /** Retry-after for a pending limit: dispatch must drain first; the client should back off. */
    static final Duration PENDING_RETRY_AFTER = Duration.ofSeconds(1);

    private final PolicyCache policies;
    private final LongFunction<CounterValues> counters;
    private final LongSupplier nodeRowBytes;
    private final LongSupplier nanos;
    private final long nodeMaxBytes;
    private final AdmissionSlots slots = new AdmissionSlots();
    private final Map<Reason, AtomicLong> refusals = new ConcurrentHashMap<>();
    private long generation;
    private long batch;
    private long nodeBytes = -1;
    private long nodeReadInBatch = -1;

    /**
     * @param policies     the tenants' policies
     * @param counters     the counters of a tenant ordinal (zeros for one not yet committed); called on the writer
     *     thread
     * @param nodeRowBytes the aggregate's {@code bytes} counter; called on the writer thread
     * @param nanos        a monotonic nanosecond clock for the rate buckets
     * @param nodeMaxBytes the node-wide limit on row bytes ({@link Long#MAX_VALUE}: none)
     */
    IngestAdmission(PolicyCache policies, LongFunction<CounterValues> counters, LongSupplier nodeRowBytes,
            LongSupplier nanos, long nodeMaxBytes) {
        this.policies = policies;
        this.generation = policies.generation();
        this.counters = counters;
        this.nodeRowBytes = nodeRowBytes;
        this.nanos = nanos;
        this.nodeMaxBytes = nodeMaxBytes;
    }

    /** A new batch starts: a refusal may read each tenant's counters once more. */
    void beginBatch() {
        batch++;
    }

    /**
     * Admits one hook of {@code tenant} (ordinal {@code ord}, or {@link #NO_ORDINAL} when it has
     * none: such a hook is refused for the tenant cap after admission, so only the node-wide limit
     * is checked) adding {@code rows} due rows of {@code rowBytes} bytes in all, or says why not.
     * An admitted hook is counted in the estimates at once (later hooks of the same batch see it);
     * {@link #forget()} undoes the estimates after a failed commit.
     */
    Optional<TenantOverloadedException> admit(String tenant, long ord, int rows, long rowBytes) {
        TenantPolicy policy = TenantPolicy.DEFAULT;
        AdmissionSlots.Page page = null;
        int slot = 0;
        if (ord != NO_ORDINAL) {
            long current = policies.generation();
            if (current != generation) {
                generation = current;
                slots.forgetPolicies();
            }
            page = slots.page(ord);
            slot = AdmissionSlots.slot(ord);
            policy = page.policies[slot];
            if (policy == null) {
                policy = policies.policyFor(tenant);
                page.policies[slot] = policy;
                if (page.buckets != null && page.buckets[slot] != null) {
                    page.buckets[slot].rate(policy.ingestRate(), nanos.getAsLong());
                }
            }
        }
        boolean pendingLimited = policy.maxPendingRows() != Long.MAX_VALUE
                || policy.maxPendingBytes() != Long.MAX_VALUE;
        if (pendingLimited) {
            page.needEstimates();
            if (page.rows[slot] < 0) {
                read(ord, page, slot);
            }
            Optional<TenantOverloadedException> over = overPending(tenant, policy, page, slot, rows, rowBytes);
            if (over.isPresent() && page.readInBatch[slot] != batch) {
                read(ord, page, slot);
                over = overPending(tenant, policy, page, slot, rows, rowBytes);
            }
            if (over.isPresent()) {
                return refuse(over.get());
            }
        }
        if (nodeMaxBytes != Long.MAX_VALUE) {
            if (nodeBytes < 0 || (nodeBytes + rowBytes > nodeMaxBytes && nodeReadInBatch != batch)) {
                nodeBytes = nodeRowBytes.getAsLong();
                nodeReadInBatch = batch;
            }
            if (nodeBytes + rowBytes > nodeMaxBytes) {
                return refuse(new TenantOverloadedException(tenant, Reason.NODE_FULL, PENDING_RETRY_AFTER,
                        "cannot be admitted: the node holds " + nodeBytes + " row bytes of at most " + nodeMaxBytes));
            }
        }
        if (!policy.ingestRate().unlimited()) {
            long now = nanos.getAsLong();
            page.needBuckets();
            TokenBucket bucket = page.buckets[slot];
            if (bucket == null) {
                bucket = new TokenBucket(policy.ingestRate(), now);
                page.buckets[slot] = bucket;
            }
            if (!bucket.tryTake(1, now)) {
                long wait = Math.max(1, bucket.nanosUntil(1, now));
                return refuse(new TenantOverloadedException(tenant, Reason.INGEST_RATE, Duration.ofNanos(wait),
                        "is over its ingest rate of " + policy.ingestRate().perSecond() + "/s"));
            }
        }
        if (pendingLimited) {
            page.rows[slot] += rows;
            page.bytes[slot] += rowBytes;
        }
        if (nodeMaxBytes != Long.MAX_VALUE) {
            nodeBytes += rowBytes;
        }
        return Optional.empty();
    }

    private static Optional<TenantOverloadedException> overPending(String tenant, TenantPolicy policy,
            AdmissionSlots.Page page, int slot, int rows, long rowBytes) {
        if (page.rows[slot] + rows > policy.maxPendingRows()) {
            return Optional.of(new TenantOverloadedException(tenant, Reason.PENDING_ROWS, PENDING_RETRY_AFTER,
                    "holds " + page.rows[slot] + " due rows of at most " + policy.maxPendingRows()));
        }
        if (page.bytes[slot] + rowBytes > policy.maxPendingBytes()) {
            return Optional.of(new TenantOverloadedException(tenant, Reason.PENDING_BYTES, PENDING_RETRY_AFTER,
                    "holds " + page.bytes[slot] + " row bytes of at most " + policy.maxPendingBytes()));
        }
        return Optional.empty();
    }

    private void read(long ord, AdmissionSlots.Page page, int slot) {
        CounterValues values = counters.apply(ord);
        page.rows[slot] = values.pending() + values.scheduled();
        page.bytes[slot] = values.bytes();
        page.readInBatch[slot] = batch;
    }

    private Optional<TenantOverloadedException> refuse(TenantOverloadedException refusal) {
        refusals.computeIfAbsent(refusal.reason(), r -> new AtomicLong()).incrementAndGet();
        return Optional.of(refusal);
    }

    /**
     * A commit failed (it may or may not have landed): forget every estimate, so the next hooks
     * read the counters again. Buckets keep their state: tokens taken stay taken.
     */
    void forget() {
        slots.forgetEstimates();
        nodeBytes = -1;
    }

    /**
     * Forgets all state of {@code ord}: it was handed to a tenant in a resolution that is not
     * committed, and may go to another tenant.
     */
    void forget(long ord) {
        slots.forget(ord);
    }

    /**
     * A tenant was erased: the node's bytes are read again. Its state needs no forgetting: a
     * tenant of the same id that comes back gets a new ordinal, and ordinals are never reused.
     */
    void erased() {
        nodeBytes = -1;
    }

    /** Hooks refused so far, by reason (any thread). */
    long refusals(Reason reason) {
        AtomicLong n = refusals.get(reason);
        return n == null ? 0 : n.get();
    }
}
