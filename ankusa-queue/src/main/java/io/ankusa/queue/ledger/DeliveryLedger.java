package io.ankusa.queue.ledger;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantStats;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The dispatcher's port into the queue: decoded rows in, transitions out; it never sees a key.
 * Every transition commits its row changes, active markers and counter deltas in one atomic
 * batch, so counters always equal the rows.
 *
 * <p>Ownership: {@link #claim} holds the tenant's stripe lock from reading the due rows to
 * committing, so a row is claimed at most once even against a concurrent purge. Inflight rows
 * belong to the caller that claimed them until settled; {@link #recoverInflight()} is for boot,
 * before anything claims. Marker cleanup ({@link #deleteMarkers}, {@link #restoreMarker}) is the
 * spec's delete-then-verify, run only by the pipeline.
 *
 * <p>Thread-safe. Times are epoch milliseconds.
 */
public interface DeliveryLedger {


    // --- reads ---

    /**
     * The first {@code limit} active markers with {@code bucket <= now / 1000}, oldest first: the
     * tenants that have (or had, until cleanup) due rows. Never visits a tenant with nothing due.
     */
    List<ActiveTenant> activeTenants(long now, int limit);

    /**
     * Up to {@code limit} active markers after {@code (bucket, ord)} in marker order (exclusive;
     * {@code ord} 0 starts at the bucket's first marker) with {@code bucket <= now / 1000}: the
     * next page of a cursor moving over the active index, so that a reader need not rescan from
     * the oldest second.
     */
    List<ActiveTenant> activeTenantsAfter(long bucket, long ord, long now, int limit);

    /**
     * Tenant {@code ord}'s due rows with {@code floorAt <= at <= now}, in {@code at} order, until
     * {@code limit} rows or {@code byteBudget} bytes (the first row is returned even if larger).
     */
    List<DueRow> dueForTenant(long ord, long now, long floorAt, int limit, long byteBudget);

    /**
     * Tenant {@code ord}'s due rows after {@code after} (exclusive, in key order: {@code at}, seq,
     * sink) with {@code at <= now}, until {@code limit} rows or {@code byteBudget} bytes (the first
     * row is returned even if larger): one seek, so that a reader that left rows behind (refused
     * by the endpoint gate) does not read them again.
     */
    List<DueRow> dueForTenantAfter(long ord, long now, DueRow after, int limit, long byteBudget);

    /**
     * {@link #dueForTenant}, and the stored due row right after the rows it returns (in key order,
     * any due time; empty when there is none), read by the same seek.
     *
     * @param ord        the tenant
     * @param now        epoch milliseconds: rows due up to then are returned
     * @param floorAt    the scan starts at this due time
     * @param limit      at most this many rows
     * @param byteBudget rows until this many bytes (the first row is returned even if larger)
     * @return the rows and the row after them
     */
    default DueRead dueForTenantAhead(long ord, long now, long floorAt, int limit, long byteBudget) {
        List<DueRow> rows = dueForTenant(ord, now, floorAt, limit, byteBudget);
        List<DueRow> after = rows.isEmpty()
                ? dueForTenant(ord, Long.MAX_VALUE, floorAt, 1, Long.MAX_VALUE)
                : dueForTenantAfter(ord, Long.MAX_VALUE, rows.get(rows.size() - 1), 1, Long.MAX_VALUE);
        return new DueRead(rows, after.stream().findFirst());
    }

    /**
     * A reader for many due reads in a row through one store reader (a tick's, for every tenant it
     * visits). The default makes each read through this ledger's own methods.
     *
     * @return an open reader; close it before committing
     */
    default DueReader dueReader() {
        return DueReader.each(this);
    }

    /** Tenant {@code ord}'s earliest due row (one seek). */
    Optional<DueRow> firstDue(long ord);

    /**
     * Tenant {@code ord}'s earliest due row at or after {@code fromAt} (one seek from there). With
     * {@code fromAt} the start of the tenant's earliest marker second this is {@link #firstDue(long)}
     * (every due row has its marker), without walking what claims left before it.
     */
    default Optional<DueRow> firstDue(long ord, long fromAt) {
        List<DueRow> rows = dueForTenant(ord, Long.MAX_VALUE, fromAt, 1, Long.MAX_VALUE);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /**
     * When the oldest due row is due, from the first active markers, each verified against its
     * tenant's {@link #firstDue}; after 32 stale markers, the next marker's bucket start. Markers of
     * the second a tick ran in outlive their rows, so a caller first checks the pending and
     * scheduled counters: with no due row counted there is nothing to age.
     */
    OptionalLong oldestDueAt();

    /**
     * The head of an ordering group: the seq of the earliest delivery of tenant {@code ord} to
     * {@code sink} in ordering group {@code group} that is neither delivered nor dead (due,
     * retrying or inflight), the only one of the group that may be claimed; empty when the group has
     * none. One seek.
     */
    OptionalLong orderHead(long ord, int sink, long group);

    /**
     * Up to {@code limit} of tenant {@code ord}'s ordering groups with deliveries waiting, by sink
     * and group: each with its head, how many wait, and the head's attempts and last error. Reads the
     * tenant's ordering keys (at most {@code scanLimit} of them) and one multi-get of the heads'
     * delivery rows.
     */
    List<OrderGroup> orderGroups(long ord, int limit, int scanLimit);

    /** Up to {@code limit} of tenant {@code ord}'s dead rows, oldest first. */
    List<DeadRow> deadRows(long ord, int limit);

    /**
     * Up to {@code limit} of tenant {@code ord}'s dead rows after {@code after} (from the first when
     * empty), oldest first, with the source and hook ids of their dead-letter values: one range of
     * the tenant's by-tenant dead index joined to the global one, no hook read.
     */
    List<DeadEntry> deadEntries(long ord, Optional<DeadRow> after, int limit);

    /**
     * A page of the node's dead letters, newest first: up to {@code limit} rows dead-lettered before
     * {@code before} (in (at, seq, sink) order; from the newest when empty), no hook read.
     */
    List<DeadEntry> deadPage(Optional<DeadRow> before, int limit);

    /**
     * The hook stored under {@code seq} (a dead letter's hook, say), or empty when none is stored
     * there or it does not decode. One read.
     */
    Optional<Hook> storedHook(long seq);

    /** The aggregate counters (ordinal 0), one multi-get. */
    QueueStats stats();

    /** Tenant {@code ord}'s counters. */
    TenantStats tenantStats(long ord);

    /** The pending counter of each tenant of {@code ords}, in order, in one multi-read. */
    long[] pending(List<Long> ords);

    /**
     * The queue's clock: due times, dead-letter times, retry times, replay bounds, backlog ages
     * and the current second of marker cleanup come from it. It never goes backwards.
     */
    QueueClock clock();

    /**
     * The stamps of due rows being written ({@link DueStamps}): every writer of due rows of this
     * queue holds one until its commit returns, and the marker cleanup deletes no marker of the
     * second of its {@linkplain DueStamps#horizon() horizon} or later.
     */
    DueStamps dueStamps();

    // --- transitions ---

    /**
     * Moves those of {@code rows} (all of tenant {@code ord}) that are still due to inflight, under
     * the tenant's stripe, in one batch; rows gone meanwhile are skipped. The batch is not synced:
     * it becomes durable with the next synced commit (at the latest the settle of its rows). A claim
     * lost to a power failure leaves its rows due, and they are sent again (at least once).
     */
    Claim claim(long ord, List<DueRow> rows);

    /**
     * {@link #claim} for many tenants in one (unsynced) batch: holds the stripes of every tenant of
     * {@code rowsByTenant} (taken in stripe order) from reading the rows to the commit. Each key's
     * rows must be of that tenant.
     */
    Claim claimAll(Map<Long, List<DueRow>> rowsByTenant);

    /**
     * {@link #claimAll(Map)}, and in the same unsynced batch {@link #deleteMarkers(Map)} of
     * {@code staleMarkers} (each key's markers of its buckets; a bucket of the current second or
     * later is never deleted): a tick's claim and its marker cleanup's deletes in one commit. The
     * deletes are committed even when nothing is left to claim.
     *
     * @param rowsByTenant the rows to claim, by tenant
     * @param staleMarkers the marker buckets to delete, by tenant
     * @return what was claimed
     */
    default Claim claimAll(Map<Long, List<DueRow>> rowsByTenant, Map<Long, ? extends Collection<Long>> staleMarkers) {
        Claim claim = rowsByTenant.isEmpty() ? Claim.empty() : claimAll(rowsByTenant);
        if (!staleMarkers.isEmpty()) {
            deleteMarkers(staleMarkers);
        }
        return claim;
    }

    /**
     * A mark to take before reading the due rows of a claim: {@link #claimAll(Map, Map, long)} with
     * it skips reading them again when no due row was removed (claimed or purged) since the mark.
     * The default never matches, so the claim always reads its rows again.
     *
     * @return the mark; compare it with nothing, pass it to {@link #claimAll(Map, Map, long)}
     */
    default long dueReadMark() {
        return Long.MIN_VALUE;
    }

    /**
     * {@link #claimAll(Map, Map)} of rows exactly as {@link #dueForTenant} or
     * {@link #dueForTenantAfter} returned them after {@code readMark} was taken. Under the stripes,
     * when no due row was removed since the mark, every row read since is still stored with the
     * value read (a due row's value never changes while it exists), so the rows are claimed as
     * given, without a second read; otherwise they are read again as {@link #claimAll(Map)} does.
     * A caller that changes a row's size or kind must not use this method.
     *
     * @param rowsByTenant the rows to claim, by tenant, as read after the mark
     * @param staleMarkers the marker buckets to delete, by tenant
     * @param readMark     {@link #dueReadMark()} taken before the rows were read
     * @return what was claimed
     */
    default Claim claimAll(Map<Long, List<DueRow>> rowsByTenant, Map<Long, ? extends Collection<Long>> staleMarkers,
            long readMark) {
        return claimAll(rowsByTenant, staleMarkers);
    }

    /** Commits the outcome of many inflight deliveries in one synced batch; rows no longer inflight are skipped. */
    void settle(List<Settlement> settlements);

    /**
     * {@link #settle(List)}, and records each of {@code attempts} whose row this batch settles in
     * the attempt history, in the same batch (an attempt of a row no longer inflight is not
     * recorded).
     *
     * @param settlements the outcomes to commit
     * @param attempts    the attempts that led to them
     */
    default void settle(List<Settlement> settlements, List<AttemptRecord> attempts) {
        settle(settlements, attempts, List.of());
    }

    /**
     * {@link #settle(List, List)} with endpoint states written in the same synced batch: each of
     * {@code endpoints} is written only when a settlement of its tenant in this batch applied (a
     * tenant whose rows are all gone, erased meanwhile, gets no endpoint row back).
     *
     * @param settlements the outcomes
     * @param attempts    the attempts that led to them (recorded in the attempt history)
     * @param endpoints   endpoint states the outcomes changed
     * @return the endpoint states written
     */
    List<EndpointRow> settle(List<Settlement> settlements, List<AttemptRecord> attempts, List<EndpointRow> endpoints);

    /**
     * {@link #settle(List, List, List)} written but not yet made durable: the caller must call
     * {@link #syncSettled()} (once for any number of such writes) before it reports any of them
     * settled, so that it can write the next batch while the last one is synced. A crash before
     * that sync may lose the write (its rows come back inflight, due again at the next open). The
     * default settles synced and reports nothing left to sync.
     *
     * @param settlements the outcomes
     * @param attempts    the attempts that led to them (recorded in the attempt history)
     * @param endpoints   endpoint states the outcomes changed
     * @return the endpoint states written, and whether a {@link #syncSettled()} must follow
     */
    default SettleWrite settleWritten(List<Settlement> settlements, List<AttemptRecord> attempts,
            List<EndpointRow> endpoints) {
        return new SettleWrite(settle(settlements, attempts, endpoints), false);
    }

    /**
     * Makes every {@link #settleWritten} write before it durable (one synced commit of the store,
     * which hardens every commit before it). The default does nothing: its writes are synced.
     */
    default void syncSettled() {
    }

    /**
     * What {@link #settleWritten} wrote.
     *
     * @param endpoints the endpoint states written
     * @param unsynced  whether something was written that waits for {@link #syncSettled()}
     */
    record SettleWrite(List<EndpointRow> endpoints, boolean unsynced) {

        /** Copies {@code endpoints}. */
        public SettleWrite {
            endpoints = List.copyOf(endpoints);
        }
    }

    /** The sink took it. */
    default void delivered(InflightRow row) {
        settle(List.of(new Settlement.Delivered(row)));
    }

    /** Due again at {@code nextAt} as a retry. */
    default void retry(ClaimedDelivery delivery, long nextAt, String error) {
        settle(List.of(new Settlement.Retry(delivery, nextAt, error)));
    }

    /** To the DLQ. */
    default void dead(ClaimedDelivery delivery, String reason) {
        settle(List.of(new Settlement.Dead(delivery, reason)));
    }

    /** Hook gone or undecodable: drop the row. */
    default void dropOrphan(InflightRow row) {
        settle(List.of(new Settlement.Orphan(row)));
    }

    /**
     * Revives tenant {@code ord}'s dead rows that still exist among {@code rows}: each becomes due
     * now as a first attempt, with its attempts reset. Under the tenant's stripe; returns how many.
     */
    int revive(long ord, List<DeadRow> rows);

    /**
     * Boot only, before anything claims: every inflight row becomes due now as a first attempt.
     * Returns how many.
     */
    int recoverInflight();

    // --- active-index cleanup (pipeline only) ---

    /**
     * Deletes tenant {@code ord}'s markers of {@code buckets} (unsynced); a bucket of the current
     * second or later is never deleted.
     */
    void deleteMarkers(long ord, Collection<Long> buckets);

    /**
     * {@link #deleteMarkers(long, Collection)} for many tenants in one unsynced batch: each key's
     * markers of its buckets; a bucket of the current second or later is never deleted.
     */
    void deleteMarkers(Map<Long, ? extends Collection<Long>> bucketsByTenant);

    /** Puts tenant {@code ord}'s marker of {@code bucket} back (synced). */
    void restoreMarker(long ord, long bucket);
}
