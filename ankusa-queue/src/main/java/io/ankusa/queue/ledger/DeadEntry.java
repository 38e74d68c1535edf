package io.ankusa.queue.ledger;

import java.util.Objects;

/**
 * A dead row with the identity its dead-letter value carries (no hook read).
 *
 * @param row      the dead row
 * @param sourceId the hook's source id
 * @param hookId   the hook's id
 */
public record DeadEntry(DeadRow row, String sourceId, String hookId) {

    /** Checks the fields. */
    public DeadEntry {
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(hookId, "hookId");
    }
}
