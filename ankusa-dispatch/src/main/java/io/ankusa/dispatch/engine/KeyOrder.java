package io.ankusa.dispatch.engine;

import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.InflightRow;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-key FIFO: of the deliveries of one (tenant, sink, ordering group), only the head may be
 * claimed, and only while no other delivery of the group is out.
 *
 * <p><b>What it guarantees.</b> At most one delivery of a group is planned, claimed or in flight
 * at a time, and it is the group's head: the earliest delivery of the group by ingest seq that is
 * neither delivered nor dead-lettered. Every later delivery of the group waits (due, untouched)
 * until the head is delivered or dead.
 *
 * <p><b>Why that is true.</b> The head is the store's answer, not this class's memory: the
 * {@code ?O} family holds each group's undelivered deliveries by seq, written with the first due
 * row and removed only in the batch that delivers, dead-letters, purges or quarantines the row; a
 * retry and boot recovery keep it. A row is admitted only when the group's first {@code ?O} key
 * names it. The admitted row is then marked {@link #out} in memory until its settle completes (or
 * it turns out not to be sent), so the rows behind it are refused without a store read. After a
 * crash the memory is empty and the store still names the head — a row in flight at the crash,
 * back to due, is still its group's head, and is attempted again before the next of its group.
 * Nothing here can admit a row behind a head that is due, retrying or in flight: such a row is
 * never the group's first key. A settle whose commit failed leaves its row inflight in the store;
 * the row behind it still reads that row as the head and waits.
 *
 * <p><b>Cost.</b> Unordered rows cost one comparison. An ordered row that may be the head costs
 * one seek of its group; the rows behind an out head cost a set lookup, and the scheduler's gate
 * skip ({@link TenantLane#skipAfter}) keeps it from reading them again until one of the tenant's
 * settles.
 *
 * <p>{@link #admit} and {@link #unclaimed} on the tick thread, {@link #settled} on the settling
 * threads.
 */
final class KeyOrder {

    /** Reads a group's head from the store. */
    @FunctionalInterface
    interface Heads {
        /** The seq of the head of (tenant {@code ord}, {@code sink}, {@code group}); empty when it has none. */
        OptionalLong head(long ord, int sink, long group);
    }

    /** No ordering at all: every row admitted (for pipelines built without a ledger to ask). */
    static final KeyOrder NONE = new KeyOrder((ord, sink, group) -> OptionalLong.empty());

    private record Group(long ord, int sink, long group) {
    }

    private final Heads heads;
    /** Groups with a delivery planned, claimed or in flight. */
    private final Set<Group> out = ConcurrentHashMap.newKeySet();

    KeyOrder(Heads heads) {
        this.heads = heads;
    }

    /**
     * Whether {@code row} may be claimed now: unordered, or its group's head with nothing of the
     * group out. An admitted ordered row marks its group out.
     */
    boolean admit(DueRow row) {
        if (!row.ordered()) {
            return true;
        }
        Group g = new Group(row.ord(), row.sink(), row.group());
        if (out.contains(g)) {
            return false;
        }
        OptionalLong head = heads.head(row.ord(), row.sink(), row.group());
        // A group without a head holds nothing this row could overtake (only a store written by
        // hand lacks the row's own key): the row goes rather than waiting for ever.
        if (head.isPresent() && head.getAsLong() != row.seq()) {
            return false;
        }
        out.add(g);
        return true;
    }

    /** An admitted row was not sent after all (refused by the gate, gone before the claim, quarantined). */
    void unclaimed(DueRow row) {
        if (row.ordered()) {
            out.remove(new Group(row.ord(), row.sink(), row.group()));
        }
    }

    /** A claimed row's settle completed (or failed): the store names the group's head again. */
    void settled(InflightRow row) {
        if (row.ordered()) {
            out.remove(new Group(row.ord(), row.sink(), row.group()));
        }
    }

    /** Groups with a delivery out now. */
    int out() {
        return out.size();
    }
}
