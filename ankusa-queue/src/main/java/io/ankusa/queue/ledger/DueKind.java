package io.ankusa.queue.ledger;

/** Why a due row is waiting: what the pending and scheduled counters count. */
public enum DueKind {
    /** First attempt, replay revival, recovery or expansion (counted as pending). */
    FIRST_ATTEMPT,
    /** A retry after a failed attempt (counted as scheduled). */
    RETRY
}
