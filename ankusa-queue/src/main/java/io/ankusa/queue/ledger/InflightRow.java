package io.ankusa.queue.ledger;

/**
 * A decoded inflight row: a delivery claimed and not yet settled.
 *
 * @param ord  tenant ordinal
 * @param seq  the hook's seq
 * @param sink sink number
 * @param size the hook's envelope size in bytes
 */
public record InflightRow(long ord, long seq, int sink, long size) {
}
