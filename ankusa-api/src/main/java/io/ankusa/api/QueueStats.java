package io.ankusa.api;

/**
 * The node aggregate of the seven queue counters (ordinal 0), read in one multi-get.
 *
 * @param pending        first-attempt rows waiting
 * @param scheduled      retry rows waiting
 * @param inflight       rows claimed and not yet settled
 * @param dead           dead rows
 * @param bytes          sum of envelope sizes of every delivery row that exists
 * @param archivePending hooks still to be archived
 * @param quarantined    deliveries moved aside because their hook or delivery row does not decode
 *                       (kept, not due; see {@code Queue.quarantine})
 */
public record QueueStats(long pending, long scheduled, long inflight, long dead, long bytes, long archivePending,
        long quarantined) {

    /**
     * The counters with nothing quarantined.
     *
     * @param pending        first-attempt rows waiting
     * @param scheduled      retry rows waiting
     * @param inflight       rows claimed and not yet settled
     * @param dead           dead rows
     * @param bytes          sum of envelope sizes of every delivery row that exists
     * @param archivePending hooks still to be archived
     */
    public QueueStats(long pending, long scheduled, long inflight, long dead, long bytes, long archivePending) {
        this(pending, scheduled, inflight, dead, bytes, archivePending, 0);
    }
}
