package io.ankusa.jdbc;

/**
 * What a relay has done since it was started: counts of rows by outcome, and whether it holds the
 * table's lock now. Counts are of this relay object only; the database tables are the truth across
 * restarts (the outbox's backlog is {@code SELECT count(*)} of the outbox table, its refusals the
 * refused table).
 *
 * @param state            what the relay is doing now
 * @param relayed          rows the queue accepted (or recognised by idempotency key) and that were deleted
 * @param refused          rows moved to the refused table because the queue refused them
 * @param late             rows moved to the refused table because they committed after the relay
 *                         had passed their id as a gap ({@code late_commit})
 * @param requeued         rows whose ingest failed (a store error, back-pressure) after a later row
 *                         had landed, written again under a new id
 * @param skipped          rows found at or below the queue's intake position and deleted: relayed by
 *                         an earlier pass that stopped before its delete
 * @param gapsPassed       id ranges passed after the gap wait without a committed row
 * @param lockAcquisitions times this relay took the lock
 */
public record RelayStats(State state, long relayed, long refused, long late, long requeued, long skipped,
        long gapsPassed, long lockAcquisitions) {

    /** What a relay is doing. */
    public enum State {
        /** Created, not started. */
        NEW,
        /** Started, waiting for the table's lock (another relay holds it) or for the database. */
        WAITING,
        /** Holding the lock and relaying rows. */
        RELAYING,
        /** Closed. */
        CLOSED,
        /** Stopped for good because the queue was closed or failed; see {@link OutboxRelay#failure()}. */
        FAILED
    }
}
