package io.ankusa.queue.intake;

import io.ankusa.api.TenantOverloadedException;
import io.ankusa.api.TenantOverloadedException.Reason;
import io.ankusa.api.TenantPolicy;
import io.ankusa.queue.admission.PolicyCache;
import io.ankusa.queue.admission.TokenBucket;
import io.ankusa.queue.deliveries.CounterValues;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Ingest admission (TEN-2), decided by the writer thread while it assembles a batch: a tenant's
 * {@link TenantPolicy#ingestRate() ingest rate} (a {@link TokenBucket} per tenant, one token per
 * hook), its {@link TenantPolicy#maxPendingRows() pending rows} and
 * {@link TenantPolicy#maxPendingBytes() pending bytes}, and the node-wide byte limit.
 *
 * <p><b>No read on the request path.</b> Only the writer thread calls this. A tenant whose policy
 * has no pending limit (the default) costs a map look-up and no read at all. A tenant with one
 * has an estimate of its pending rows and bytes: read from its counters on first use (one
 * multi-get on the writer thread), then raised by every hook the writer admits. Dispatch lowers
 * the counters concurrently, so the estimate is only ever too high: <b>the check is
 * conservative</b> — an admitted hook never takes the tenant past its limit as of the counters it
 * read. Before refusing, the writer reads the counters again (at most once per tenant per batch),
 * so a refusal is exact as of that batch: a tenant refused is over its limit then, not merely
 * over a stale estimate. Retries moving inflight rows back to due are dispatch's, not ingest's:
 * the limit bounds what ingest adds, not what retries return.
 *
 * <p>The node-wide limit works the same way on the aggregate's {@code bytes} counter.
 */
final class IngestAdmission {

    /** Tenants tracked before the state is cleared whole (a miss costs one counter read). */
    static final int CAPACITY = 65_536;

    /** Retry-after for a pending limit: dispatch must drain first; the client should back off. */
    static final Duration PENDING_RETRY_AFTER = Duration.ofSeconds(1);

    private final PolicyCache policies;
    private final Function<String, CounterValues> counters;
    private final LongSupplier nodeRowBytes;
    private final LongSupplier nanos;
    private final long nodeMaxBytes;
    private final Map<String, TenantState> tenants = new HashMap<>();
    private final Map<Reason, AtomicLong> refusals = new ConcurrentHashMap<>();
    private long batch;
    private long nodeBytes = -1;
    private long nodeReadInBatch = -1;

    private static final class TenantState {
        long generation;
        TenantPolicy policy;
        TokenBucket bucket;
        /** Estimated due rows and row bytes; -1 until read. */
        long rows = -1;
        long bytes;
        long readInBatch = -1;
    }

    /**
     * @param policies     the tenants' policies
     * @param counters     a tenant's counters (zeros for an unknown tenant); called on the writer thread
     * @param nodeRowBytes the aggregate's {@code bytes} counter; called on the writer thread
     * @param nanos        a monotonic nanosecond clock for the rate buckets
     * @param nodeMaxBytes the node-wide limit on row bytes ({@link Long#MAX_VALUE}: none)
     */
    IngestAdmission(PolicyCache policies, Function<String, CounterValues> counters, LongSupplier nodeRowBytes,
            LongSupplier nanos, long nodeMaxBytes) {
        this.policies = policies;
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
     * Admits one hook of {@code tenant} adding {@code rows} due rows of {@code rowBytes} bytes in all,
     * or says why not. An admitted hook is counted in the estimates at once (later hooks of the same
     * batch see it); {@link #forget()} undoes the estimates after a failed commit.
     */
    Optional<TenantOverloadedException> admit(String tenant, int rows, long rowBytes) {
        TenantState state = state(tenant);
        TenantPolicy policy = state.policy;
        boolean pendingLimited = policy.maxPendingRows() != Long.MAX_VALUE || policy.maxPendingBytes() != Long.MAX_VALUE;
        if (pendingLimited) {
            if (state.rows < 0) {
                read(tenant, state);
            }
            Optional<TenantOverloadedException> over = overPending(tenant, state, rows, rowBytes);
            if (over.isPresent() && state.readInBatch != batch) {
                read(tenant, state);
                over = overPending(tenant, state, rows, rowBytes);
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
            if (!state.bucket.tryTake(1, now)) {
                long wait = Math.max(1, state.bucket.nanosUntil(1, now));
                return refuse(new TenantOverloadedException(tenant, Reason.INGEST_RATE, Duration.ofNanos(wait),
                        "is over its ingest rate of " + policy.ingestRate().perSecond() + "/s"));
            }
        }
        if (pendingLimited) {
            state.rows += rows;
            state.bytes += rowBytes;
        }
        if (nodeMaxBytes != Long.MAX_VALUE) {
            nodeBytes += rowBytes;
        }
        return Optional.empty();
    }

    private Optional<TenantOverloadedException> overPending(String tenant, TenantState state, int rows, long rowBytes) {
        TenantPolicy policy = state.policy;
        if (state.rows + rows > policy.maxPendingRows()) {
            return Optional.of(new TenantOverloadedException(tenant, Reason.PENDING_ROWS, PENDING_RETRY_AFTER,
                    "holds " + state.rows + " due rows of at most " + policy.maxPendingRows()));
        }
        if (state.bytes + rowBytes > policy.maxPendingBytes()) {
            return Optional.of(new TenantOverloadedException(tenant, Reason.PENDING_BYTES, PENDING_RETRY_AFTER,
                    "holds " + state.bytes + " row bytes of at most " + policy.maxPendingBytes()));
        }
        return Optional.empty();
    }

    private void read(String tenant, TenantState state) {
        CounterValues values = counters.apply(tenant);
        state.rows = values.pending() + values.scheduled();
        state.bytes = values.bytes();
        state.readInBatch = batch;
    }

    private Optional<TenantOverloadedException> refuse(TenantOverloadedException refusal) {
        refusals.computeIfAbsent(refusal.reason(), r -> new AtomicLong()).incrementAndGet();
        return Optional.of(refusal);
    }

    private TenantState state(String tenant) {
        TenantState state = tenants.get(tenant);
        long generation = policies.generation();
        if (state == null) {
            if (tenants.size() >= CAPACITY) {
                tenants.clear();
            }
            state = new TenantState();
            state.generation = generation;
            state.policy = policies.policyFor(tenant);
            state.bucket = new TokenBucket(state.policy.ingestRate(), nanos.getAsLong());
            tenants.put(tenant, state);
        } else if (state.generation != generation) {
            state.generation = generation;
            state.policy = policies.policyFor(tenant);
            state.bucket.rate(state.policy.ingestRate(), nanos.getAsLong());
        }
        return state;
    }

    /**
     * A commit failed (it may or may not have landed): forget every estimate, so the next hooks
     * read the counters again. Buckets keep their state: tokens taken stay taken.
     */
    void forget() {
        for (TenantState state : tenants.values()) {
            state.rows = -1;
        }
        nodeBytes = -1;
    }

    /** Forgets {@code tenant} (erased): a later tenant of the same id starts afresh. */
    void forget(String tenant) {
        tenants.remove(tenant);
        nodeBytes = -1;
    }

    /** Hooks refused so far, by reason (any thread). */
    long refusals(Reason reason) {
        AtomicLong n = refusals.get(reason);
        return n == null ? 0 : n.get();
    }
}
