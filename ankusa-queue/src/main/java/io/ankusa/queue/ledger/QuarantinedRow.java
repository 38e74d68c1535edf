package io.ankusa.queue.ledger;

/**
 * A delivery moved aside because its stored hook or delivery row does not decode: no longer due,
 * not deleted, counted in the {@code quarantined} counter.
 *
 * @param ord           tenant ordinal
 * @param seq           the hook's seq
 * @param sink          sink number
 * @param size          the envelope size the row carried (still counted in {@code bytes})
 * @param reason        why it was moved aside
 * @param quarantinedAt when, epoch milliseconds
 */
public record QuarantinedRow(long ord, long seq, int sink, long size, Reason reason, long quarantinedAt) {

    /** Why a delivery was quarantined. */
    public enum Reason {
        /** The stored hook does not decode (on LMDB, any damaged byte inside it). */
        HOOK_UNDECODABLE,
        /** The stored delivery row (attempts, last error) does not decode. */
        DELIVERY_ROW_UNDECODABLE
    }

    /** Checks the fields. */
    public QuarantinedRow {
        java.util.Objects.requireNonNull(reason, "reason");
    }
}
