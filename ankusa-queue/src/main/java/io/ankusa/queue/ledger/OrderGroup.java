package io.ankusa.queue.ledger;

/**
 * One ordering group of a tenant as the store holds it: the deliveries of one (sink, ordering key)
 * not yet delivered or dead-lettered.
 *
 * @param ord     tenant ordinal
 * @param sink    sink number
 * @param group   the ordering group (the ordering key, hashed)
 * @param headSeq the seq of its head, the one delivery of the group that may be claimed
 * @param waiting how many of its deliveries wait, the head included
 */
public record OrderGroup(long ord, int sink, long group, long headSeq, long waiting) {
}
