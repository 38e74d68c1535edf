package io.ankusa.queue.deliveries;

import io.ankusa.keys.ActiveKey;
import io.ankusa.keys.ArchiveKey;
import io.ankusa.keys.ClearedKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeadByTenantKey;
import io.ankusa.keys.DeadKey;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.EndpointKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.InflightKey;
import io.ankusa.keys.OrderKey;
import io.ankusa.keys.QuarantineKey;
import io.ankusa.queue.ledger.DeadRow;
import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.EndpointRow;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.queue.ledger.QuarantinedRow;
import io.ankusa.api.EndpointDisableReason;
import java.util.Collection;
import java.util.Optional;

/**
 * The op builders: the only code that builds {@link io.ankusa.keys.DueKey ?D}
 * {@link io.ankusa.keys.InflightKey ?F} {@link io.ankusa.keys.DeadByTenantKey ?X}
 * {@link io.ankusa.keys.ActiveKey ?A}
 * {@link io.ankusa.keys.QuarantineKey ?Q} {@link io.ankusa.keys.EndpointKey ?E} keys, and the only way to put or
 * delete a {@link io.ankusa.keys.DueKey ?D} {@link io.ankusa.keys.InflightKey ?F}
 * {@link io.ankusa.keys.DeadKey ?x} {@link io.ankusa.keys.DeadByTenantKey ?X}
 * {@link io.ankusa.keys.ArchiveKey ?a}
 * {@link io.ankusa.keys.QuarantineKey ?Q} key. Each adds a transition's row changes <em>and</em> its
 * counter deltas to a {@link DeliveryBatch}; the batch turns the deltas into merge operands through
 * {@link io.ankusa.queue.deliveries.Counters#ops} when it is committed.
 *
 * <p>The builders are pure: they read nothing. A caller that consumes an existing row reads it
 * first (under the tenant's stripe) and passes the decoded row in.
 *
 * <table>
 * <caption>Counter deltas per transition</caption>
 * <tr><th>builder</th><th>pending</th><th>scheduled</th><th>inflight</th><th>dead</th><th>bytes</th>
 *     <th>archive_pending</th></tr>
 * <tr><td>ingest / expand, per sink</td><td>+1</td><td></td><td></td><td></td><td>+size</td><td>+1 per hook if
 * archiving</td></tr>
 * <tr><td>claim</td><td>−1 (kind 0)</td><td>−1 (kind 1)</td><td>+1</td><td></td><td></td><td></td></tr>
 * <tr><td>delivered, orphan drop</td><td></td><td></td><td>−1</td><td></td><td>−size</td><td></td></tr>
 * <tr><td>retry</td><td></td><td>+1</td><td>−1</td><td></td><td></td><td></td></tr>
 * <tr><td>dead-letter</td><td></td><td></td><td>−1</td><td>+1</td><td></td><td></td></tr>
 * <tr><td>recover inflight</td><td>+1</td><td></td><td>−1</td><td></td><td></td><td></td></tr>
 * <tr><td>revive</td><td>+1</td><td></td><td></td><td>−1</td><td></td><td></td></tr>
 * <tr><td>purge due</td><td>−1 (kind 0)</td><td>−1 (kind 1)</td><td></td><td></td><td>−size</td><td></td></tr>
 * <tr><td>purge dead</td><td></td><td></td><td></td><td>−1</td><td>−size</td><td></td></tr>
 * <tr><td>quarantine (a due row whose hook or delivery row does not decode)</td><td>−1 (kind 0)</td><td>−1 (kind
 * 1)</td><td></td><td></td><td></td><td></td></tr>
 * <tr><td>release from quarantine</td><td>+1</td><td></td><td></td><td></td><td></td><td></td></tr>
 * <tr><td>purge quarantined</td><td></td><td></td><td></td><td></td><td>−size</td><td></td></tr>
 * <tr><td>archive settle / drop</td><td></td><td></td><td></td><td></td><td></td><td>−1</td></tr>
 * <tr><td>migrated due / inflight / dead row</td><td>+1 (kind 0)</td><td>+1 (kind 1)</td><td>+1 (inflight)</td><td>+1
 * (dead)</td><td>+size</td><td></td></tr>
 * <tr><td>migrated archive obligation</td><td></td><td></td><td></td><td></td><td></td><td>+1</td></tr>
 * </table>
 *
 * <p>Ordered deliveries (a hook with an ordering key) carry their ordering group in the due and
 * inflight values and have an {@link io.ankusa.keys.OrderKey ?O} key from ingest until the
 * transition that takes them out of due and inflight for good: delivered, orphan drop,
 * dead-letter, purge of a due row, quarantine. Retry and recovery keep the group; revival, release
 * from quarantine and expansion write unordered rows (a revived row is delivered out of order).
 *
 * <p>The quarantined counter (field 7) is +1 on quarantine and −1 on release and purge; bytes are
 * unchanged by quarantine and release (the delivery row stays).
 */
public final class Deliveries {

    private Deliveries() {
    }

    /**
     * A due row and its active marker (coalesced per tenant-second within the batch); pending +1
     * for a first attempt, scheduled +1 for a retry. There is no other way to write a due row.
     */
    public static void dueOps(DeliveryBatch b, long ord, long at, long seq, int sink, long size, DueKind kind) {
        dueOps(b, ord, at, seq, sink, size, kind, DueRow.UNORDERED);
    }

    /** {@link #dueOps} of a delivery of ordering group {@code group} (its {@code ?O} key is the caller's). */
    static void dueOps(DeliveryBatch b, long ord, long at, long seq, int sink, long size, DueKind kind, long group) {
        int k = kind == DueKind.RETRY ? DueKey.KIND_RETRY : DueKey.KIND_FIRST;
        b.putIndex(new DueKey(ord, at, seq, sink).encode(), DueKey.value(size, k, group));
        b.marker(ActiveKey.forDue(ord, at));
        b.count(ord, kind == DueKind.RETRY ? CounterField.SCHEDULED : CounterField.PENDING, 1);
    }

    /**
     * The ops of a newly ingested hook (the hook envelope itself is the writer's put): a delivery
     * row and a first-attempt due row per sink, bytes +size per sink, and with the archive on an
     * archive obligation.
     */
    public static void ingestOps(DeliveryBatch b, long ord, long seq, Collection<Integer> sinks, long size, long at,
            boolean archive) {
        ingestOps(b, ord, seq, sinks, size, at, archive, DueRow.UNORDERED);
    }

    /**
     * {@link #ingestOps} of a hook of ordering group {@code group} ({@link DueRow#UNORDERED} for
     * none): each due row carries the group, and each delivery joins the end of its (tenant, sink,
     * group) order with an {@link OrderKey ?O} key.
     */
    public static void ingestOps(DeliveryBatch b, long ord, long seq, Collection<Integer> sinks, long size, long at,
            boolean archive, long group) {
        byte[] row = DeliveryRow.fresh(size).encode();
        for (int sink : sinks) {
            b.putRow(ColumnFamilies.DELIVERIES, new DeliveryKey(seq, sink).encode(), row);
            dueOps(b, ord, at, seq, sink, size, DueKind.FIRST_ATTEMPT, group);
            b.count(ord, CounterField.BYTES, size);
            if (group != DueRow.UNORDERED) {
                b.putOrder(new OrderKey(ord, sink, group, seq).encode());
            }
        }
        if (archive) {
            b.putIndex(new ArchiveKey(seq).encode(), ArchiveKey.value(size, ord));
            b.count(ord, CounterField.ARCHIVE_PENDING, 1);
        }
    }

    /** New deliveries of an existing hook: per sink a delivery row and a first-attempt due row, bytes +size. */
    public static void expandOps(DeliveryBatch b, long ord, long seq, Collection<Integer> sinks, long size, long at) {
        byte[] row = DeliveryRow.fresh(size).encode();
        for (int sink : sinks) {
            b.putRow(ColumnFamilies.DELIVERIES, new DeliveryKey(seq, sink).encode(), row);
            dueOps(b, ord, at, seq, sink, size, DueKind.FIRST_ATTEMPT);
            b.count(ord, CounterField.BYTES, size);
        }
    }

    /** Moves a due row to inflight with the ord and size it carries. */
    public static InflightRow claimOps(DeliveryBatch b, DueRow due) {
        b.deleteIndex(new DueKey(due.ord(), due.at(), due.seq(), due.sink()).encode());
        b.putIndex(new InflightKey(due.ord(), due.seq(), due.sink()).encode(),
                InflightKey.value(due.size(), due.group()));
        b.count(due.ord(), due.kind() == DueKind.RETRY ? CounterField.SCHEDULED : CounterField.PENDING, -1);
        b.count(due.ord(), CounterField.INFLIGHT, 1);
        return new InflightRow(due.ord(), due.seq(), due.sink(), due.size(), due.group());
    }

    /**
     * The sink took it: the inflight key and the delivery row go. The caller adds what becomes of
     * the hook, once per hook: {@link #hookReleasedOps} when nothing else needs it, otherwise
     * {@link #hookClearedOps} (see {@link HookRelease}).
     */
    public static void deliveredOps(DeliveryBatch b, InflightRow row) {
        removeInflight(b, row);
    }

    /** The hook is gone or undecodable: as delivered, the row is dropped; a cleared marker is left for reclaim. */
    public static void orphanDropOps(DeliveryBatch b, InflightRow row) {
        removeInflight(b, row);
        hookClearedOps(b, row.seq());
    }

    /** A delivery row of hook {@code seq} went, and others may need it: a cleared marker for reclaim to check. */
    static void hookClearedOps(DeliveryBatch b, long seq) {
        b.putRow(ColumnFamilies.INDEX, new ClearedKey(seq).encode(), new byte[0]);
    }

    /**
     * The batch removes the last delivery row of hook {@code seq} and it has no archive obligation
     * (checked under its tenant's stripe): the hook goes in the same batch.
     */
    static void hookReleasedOps(DeliveryBatch b, long seq) {
        b.deleteRow(ColumnFamilies.HOOKS, new HookKey(seq).encode());
    }

    private static void removeInflight(DeliveryBatch b, InflightRow row) {
        leaveOrder(b, row.ord(), row.sink(), row.group(), row.seq());
        b.deleteIndex(new InflightKey(row.ord(), row.seq(), row.sink()).encode());
        b.deleteRow(ColumnFamilies.DELIVERIES, new DeliveryKey(row.seq(), row.sink()).encode());
        b.count(row.ord(), CounterField.INFLIGHT, -1);
        b.count(row.ord(), CounterField.BYTES, -row.size());
    }

    /**
     * Moves a due row aside into the quarantine: its hook or delivery row is stored but does not
     * decode. The due key goes (the row no longer blocks its tenant), a {@code ?Q} key takes it,
     * the delivery row and the hook stay untouched; pending or scheduled −1, quarantined +1.
     */
    public static QuarantinedRow quarantineOps(DeliveryBatch b, DueRow due, QuarantinedRow.Reason reason, long now) {
        // A row that cannot be sent must not hold up its key: it leaves the order (released, it is unordered).
        leaveOrder(b, due.ord(), due.sink(), due.group(), due.seq());
        b.deleteIndex(new DueKey(due.ord(), due.at(), due.seq(), due.sink()).encode());
        b.putIndex(new QuarantineKey(due.ord(), due.seq(), due.sink()).encode(),
                QuarantineKey.value(due.size(), reasonCode(reason), now));
        b.count(due.ord(), due.kind() == DueKind.RETRY ? CounterField.SCHEDULED : CounterField.PENDING, -1);
        b.count(due.ord(), CounterField.QUARANTINED, 1);
        return new QuarantinedRow(due.ord(), due.seq(), due.sink(), due.size(), reason, now);
    }

    /**
     * Releases a quarantined row back to due now as a first attempt (the operator restored its
     * hook); {@code row} is the delivery row to keep (a fresh one when the stored one did not
     * decode). Quarantined −1, pending +1.
     */
    public static void releaseQuarantinedOps(DeliveryBatch b, QuarantinedRow q, DeliveryRow row, long now) {
        b.deleteIndex(new QuarantineKey(q.ord(), q.seq(), q.sink()).encode());
        b.putRow(ColumnFamilies.DELIVERIES, new DeliveryKey(q.seq(), q.sink()).encode(), row.encode());
        dueOps(b, q.ord(), now, q.seq(), q.sink(), q.size(), DueKind.FIRST_ATTEMPT);
        b.count(q.ord(), CounterField.QUARANTINED, -1);
    }

    /**
     * Purges a quarantined row (an operator's explicit, audited decision): the quarantine key and
     * the delivery row go, a cleared marker is left for reclaim; quarantined −1, bytes −size.
     */
    public static void purgeQuarantinedOps(DeliveryBatch b, QuarantinedRow q) {
        b.deleteIndex(new QuarantineKey(q.ord(), q.seq(), q.sink()).encode());
        b.deleteRow(ColumnFamilies.DELIVERIES, new DeliveryKey(q.seq(), q.sink()).encode());
        b.putRow(ColumnFamilies.INDEX, new ClearedKey(q.seq()).encode(), new byte[0]);
        b.count(q.ord(), CounterField.QUARANTINED, -1);
        b.count(q.ord(), CounterField.BYTES, -q.size());
    }

    /** The stored reason code. */
    static int reasonCode(QuarantinedRow.Reason reason) {
        return reason == QuarantinedRow.Reason.HOOK_UNDECODABLE ? QuarantineKey.REASON_HOOK
                : QuarantineKey.REASON_DELIVERY_ROW;
    }

    /** A quarantined row from its key and value as stored. */
    public static QuarantinedRow quarantinedRow(byte[] key, byte[] value) {
        QuarantineKey k = QuarantineKey.decode(key);
        QuarantineKey.Value v = QuarantineKey.decodeValue(value);
        return new QuarantinedRow(k.ord(), k.seq(), k.sink(), v.size(), v.reason() == QuarantineKey.REASON_HOOK
                ? QuarantinedRow.Reason.HOOK_UNDECODABLE : QuarantinedRow.Reason.DELIVERY_ROW_UNDECODABLE,
                v.quarantinedAt());
    }

    /**
     * Writes endpoint {@code row}'s state: its {@link EndpointKey ?E} key put, or deleted when the
     * endpoint is active and not failing. Not counted.
     */
    public static void endpointOps(DeliveryBatch b, EndpointRow row) {
        byte[] key = new EndpointKey(row.ord(), row.sink()).encode();
        if (!row.stored()) {
            b.deleteIndex(key);
            return;
        }
        EndpointKey.Value value = row.disabledBy()
                .map(r -> new EndpointKey.Value(EndpointKey.STATE_DISABLED, reasonCode(r), row.since(),
                        row.failingSince()))
                .orElseGet(() -> new EndpointKey.Value(EndpointKey.STATE_ACTIVE, EndpointKey.REASON_NONE, 0,
                        row.failingSince()));
        b.putIndex(key, value.encode());
    }

    /** An endpoint row from its key and value as stored. */
    public static EndpointRow endpointRow(byte[] key, byte[] value) {
        EndpointKey k = EndpointKey.decode(key);
        EndpointKey.Value v = EndpointKey.decodeValue(value);
        Optional<EndpointDisableReason> reason = switch (v.reason()) {
            case EndpointKey.REASON_GONE -> Optional.of(EndpointDisableReason.GONE);
            case EndpointKey.REASON_FAILING -> Optional.of(EndpointDisableReason.FAILING);
            case EndpointKey.REASON_OPERATOR -> Optional.of(EndpointDisableReason.OPERATOR);
            default -> Optional.empty();
        };
        return new EndpointRow(k.ord(), k.sink(), reason, reason.isPresent() ? v.since() : 0, v.failingSince());
    }

    private static int reasonCode(EndpointDisableReason reason) {
        return switch (reason) {
            case GONE -> EndpointKey.REASON_GONE;
            case FAILING -> EndpointKey.REASON_FAILING;
            case OPERATOR -> EndpointKey.REASON_OPERATOR;
        };
    }

    /** Inflight back to due as a retry at {@code nextAt}, with the delivery row updated. */
    public static void retryOps(DeliveryBatch b, InflightRow row, DeliveryRow updated, long nextAt) {
        b.deleteIndex(new InflightKey(row.ord(), row.seq(), row.sink()).encode());
        b.putRow(ColumnFamilies.DELIVERIES, new DeliveryKey(row.seq(), row.sink()).encode(), updated.encode());
        dueOps(b, row.ord(), nextAt, row.seq(), row.sink(), row.size(), DueKind.RETRY, row.group());
        b.count(row.ord(), CounterField.INFLIGHT, -1);
    }

    /** Inflight to the DLQ at {@code at}: the global dead key, its by-tenant companion, the delivery row updated. */
    public static void deadOps(DeliveryBatch b, InflightRow row, DeliveryRow updated, long at, String sourceId,
            String hookId) {
        leaveOrder(b, row.ord(), row.sink(), row.group(), row.seq());
        b.deleteIndex(new InflightKey(row.ord(), row.seq(), row.sink()).encode());
        b.putRow(ColumnFamilies.DELIVERIES, new DeliveryKey(row.seq(), row.sink()).encode(), updated.encode());
        b.putIndex(new DeadKey(at, row.seq(), row.sink()).encode(), DeadKey.value(row.ord(), sourceId, hookId));
        b.putIndex(new DeadByTenantKey(row.ord(), at, row.seq(), row.sink()).encode(), new byte[0]);
        b.count(row.ord(), CounterField.INFLIGHT, -1);
        b.count(row.ord(), CounterField.DEAD, 1);
    }

    /** Boot recovery: inflight back to due now as a first attempt. */
    public static void recoverInflightOps(DeliveryBatch b, InflightRow row, long now) {
        b.deleteIndex(new InflightKey(row.ord(), row.seq(), row.sink()).encode());
        dueOps(b, row.ord(), now, row.seq(), row.sink(), row.size(), DueKind.FIRST_ATTEMPT, row.group());
        b.count(row.ord(), CounterField.INFLIGHT, -1);
    }

    /** Dead back to due now as a first attempt; {@code row} is the delivery row as read (its size is kept). */
    public static void reviveOps(DeliveryBatch b, DeadRow dead, DeliveryRow row, long now) {
        b.deleteIndex(new DeadKey(dead.at(), dead.seq(), dead.sink()).encode());
        b.deleteIndex(new DeadByTenantKey(dead.ord(), dead.at(), dead.seq(), dead.sink()).encode());
        b.putRow(ColumnFamilies.DELIVERIES, new DeliveryKey(dead.seq(), dead.sink()).encode(), row.revived().encode());
        dueOps(b, dead.ord(), now, dead.seq(), dead.sink(), row.size(), DueKind.FIRST_ATTEMPT);
        b.count(dead.ord(), CounterField.DEAD, -1);
    }

    /**
     * Purges a due row: index key and delivery row go, a cleared marker is left for reclaim. The
     * row's active marker is left to the pipeline's cleanup (a stale marker costs one empty visit).
     */
    public static void purgeDueOps(DeliveryBatch b, DueRow due) {
        leaveOrder(b, due.ord(), due.sink(), due.group(), due.seq());
        b.deleteIndex(new DueKey(due.ord(), due.at(), due.seq(), due.sink()).encode());
        b.deleteRow(ColumnFamilies.DELIVERIES, new DeliveryKey(due.seq(), due.sink()).encode());
        b.putRow(ColumnFamilies.INDEX, new ClearedKey(due.seq()).encode(), new byte[0]);
        b.count(due.ord(), due.kind() == DueKind.RETRY ? CounterField.SCHEDULED : CounterField.PENDING, -1);
        b.count(due.ord(), CounterField.BYTES, -due.size());
    }

    /** Purges a dead row of {@code size} bytes: both dead keys and the delivery row go, a cleared marker is left. */
    public static void purgeDeadOps(DeliveryBatch b, DeadRow dead, long size) {
        b.deleteIndex(new DeadKey(dead.at(), dead.seq(), dead.sink()).encode());
        b.deleteIndex(new DeadByTenantKey(dead.ord(), dead.at(), dead.seq(), dead.sink()).encode());
        b.deleteRow(ColumnFamilies.DELIVERIES, new DeliveryKey(dead.seq(), dead.sink()).encode());
        b.putRow(ColumnFamilies.INDEX, new ClearedKey(dead.seq()).encode(), new byte[0]);
        b.count(dead.ord(), CounterField.DEAD, -1);
        b.count(dead.ord(), CounterField.BYTES, -size);
    }

    /** The compactor archived hook {@code seq}: its obligation goes, a cleared marker is left for reclaim. */
    public static void archiveSettleOps(DeliveryBatch b, long seq, ArchiveKey.Value obligation) {
        removeObligation(b, seq, obligation);
    }

    /**
     * The compactor gave up on archiving hook {@code seq} (for example the hook is gone): its
     * obligation goes, a cleared marker is left for reclaim.
     */
    public static void archiveDropOps(DeliveryBatch b, long seq, ArchiveKey.Value obligation) {
        removeObligation(b, seq, obligation);
    }

    // The obligation may be the last thing that kept the hook: reclaim learns of it from ?c, as it
    // does when a delivery row goes.
    private static void removeObligation(DeliveryBatch b, long seq, ArchiveKey.Value obligation) {
        b.deleteIndex(new ArchiveKey(seq).encode());
        b.putRow(ColumnFamilies.INDEX, new ClearedKey(seq).encode(), new byte[0]);
        b.count(obligation.ord(), CounterField.ARCHIVE_PENDING, -1);
    }

    // --- for the 2 -> 3 migration: rows that already exist, filed under their tenant for the first time ---

    /**
     * A format-2 due row re-keyed under its tenant: the due row and its marker, pending or scheduled
     * +1, bytes +size (the delivery row already exists; the caller deletes the old
     * {@link io.ankusa.keys.v2.DueKeyV2 ?d} key).
     */
    public static void migratedDueOps(DeliveryBatch b, long ord, long at, long seq, int sink, long size, DueKind kind) {
        dueOps(b, ord, at, seq, sink, size, kind);
        b.count(ord, CounterField.BYTES, size);
    }

    /**
     * A format-2 inflight row re-keyed under its tenant: inflight +1 and bytes +size. (The spec's
     * phase table lists only inflight +1; bytes counts every delivery row that exists, inflight
     * ones included, so it is added here or the counters would not equal the fold.)
     */
    public static void migratedInflightOps(DeliveryBatch b, long ord, long seq, int sink, long size) {
        b.putIndex(new InflightKey(ord, seq, sink).encode(), InflightKey.value(size));
        b.count(ord, CounterField.INFLIGHT, 1);
        b.count(ord, CounterField.BYTES, size);
    }

    /**
     * A format-2 dead row: its {@link io.ankusa.keys.DeadKey ?x} value rewritten with the ordinal, its
     * {@link io.ankusa.keys.DeadByTenantKey ?X} put, dead +1, bytes +size.
     */
    public static void migratedDeadOps(DeliveryBatch b, long ord, long at, long seq, int sink, long size,
            String sourceId,
            String hookId) {
        b.putIndex(new DeadKey(at, seq, sink).encode(), DeadKey.value(ord, sourceId, hookId));
        b.putIndex(new DeadByTenantKey(ord, at, seq, sink).encode(), new byte[0]);
        b.count(ord, CounterField.DEAD, 1);
        b.count(ord, CounterField.BYTES, size);
    }

    /** A format-2 archive obligation rewritten with the ordinal: archive_pending +1. */
    public static void migratedArchiveOps(DeliveryBatch b, long seq, long size, long ord) {
        b.putIndex(new ArchiveKey(seq).encode(), ArchiveKey.value(size, ord));
        b.count(ord, CounterField.ARCHIVE_PENDING, 1);
    }

    /** An ordered delivery is done with its order: its {@code ?O} key goes, and the next of its group is the head. */
    private static void leaveOrder(DeliveryBatch b, long ord, int sink, long group, long seq) {
        if (group != DueRow.UNORDERED) {
            b.deleteOrder(new OrderKey(ord, sink, group, seq).encode());
        }
    }

    /** Deletes tenant {@code ord}'s marker of {@code bucket} (marker cleanup; markers are not counted). */
    public static void deleteMarkerOps(DeliveryBatch b, long ord, long bucket) {
        b.deleteIndex(new ActiveKey(bucket, ord).encode());
    }

    /** Puts tenant {@code ord}'s marker of {@code bucket} back (marker cleanup, step 3). */
    public static void restoreMarkerOps(DeliveryBatch b, long ord, long bucket) {
        b.marker(new ActiveKey(bucket, ord));
    }
}
