package io.ankusa.queue.ledger;

/**
 * A decoded inflight row: a delivery claimed and not yet settled.
 *
 * @param ord   tenant ordinal
 * @param seq   the hook's seq
 * @param sink  sink number
 * @param size  the hook's envelope size in bytes
 * @param group the delivery's ordering group, {@link DueRow#UNORDERED} for none
 */
public record InflightRow(long ord, long seq, int sink, long size, long group) {

    /** An unordered inflight row. */
    public InflightRow(long ord, long seq, int sink, long size) {
        this(ord, seq, sink, size, DueRow.UNORDERED);
    }

    /** Whether the delivery waits its turn behind the earlier ones of its ordering group. */
    public boolean ordered() {
        return group != DueRow.UNORDERED;
    }
}
