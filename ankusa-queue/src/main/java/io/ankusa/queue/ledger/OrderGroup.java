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
 * @param headAttempts  the attempts its head's delivery row records (settled ones: an attempt in flight
 *                      counts once settled); 0 when the row is gone or does not decode
 * @param headLastError the last error its head's delivery row records, empty for none
 */
public record OrderGroup(long ord, int sink, long group, long headSeq, long waiting, int headAttempts,
        String headLastError) {

    /** Checks the fields. */
    public OrderGroup {
        java.util.Objects.requireNonNull(headLastError, "headLastError");
    }
}
