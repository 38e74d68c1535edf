package io.ankusa.queue.ledger;

import java.util.Objects;

/**
 * A decoded due row.
 *
 * @param ord  tenant ordinal
 * @param at   when it is due, epoch milliseconds
 * @param seq  the hook's seq
 * @param sink sink number
 * @param size the hook's envelope size in bytes
 * @param kind first attempt or retry
 */
public record DueRow(long ord, long at, long seq, int sink, long size, DueKind kind) {

    /** Checks the kind is present. */
    public DueRow {
        Objects.requireNonNull(kind, "kind");
    }
}
