package io.ankusa.queue.ledger;

import java.util.Objects;

/**
 * A decoded due row.
 *
 * @param ord   tenant ordinal
 * @param at    when it is due, epoch milliseconds
 * @param seq   the hook's seq
 * @param sink  sink number
 * @param size  the hook's envelope size in bytes
 * @param kind  first attempt or retry
 * @param group the delivery's ordering group (its hook's ordering key, hashed), {@link #UNORDERED} for none
 */
public record DueRow(long ord, long at, long seq, int sink, long size, DueKind kind, long group) {

    /** The group of a delivery without an ordering key. */
    public static final long UNORDERED = 0;

    /** Checks the kind is present. */
    public DueRow {
        Objects.requireNonNull(kind, "kind");
    }

    /** An unordered due row. */
    public DueRow(long ord, long at, long seq, int sink, long size, DueKind kind) {
        this(ord, at, seq, sink, size, kind, UNORDERED);
    }

    /** Whether the delivery waits its turn behind the earlier ones of its ordering group. */
    public boolean ordered() {
        return group != UNORDERED;
    }
}
