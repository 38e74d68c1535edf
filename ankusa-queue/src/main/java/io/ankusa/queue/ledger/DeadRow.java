package io.ankusa.queue.ledger;

/**
 * A dead row's identity, from the by-tenant dead index.
 *
 * @param ord  tenant ordinal
 * @param at   when it was dead-lettered, epoch milliseconds
 * @param seq  the hook's seq
 * @param sink sink number
 */
public record DeadRow(long ord, long at, long seq, int sink) {
}
