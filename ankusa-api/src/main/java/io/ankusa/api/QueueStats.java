package io.ankusa.api;

/**
 * The node aggregate of the six queue counters (ordinal 0), read in one multi-get.
 *
 * @param pending        first-attempt rows waiting
 * @param scheduled      retry rows waiting
 * @param inflight       rows claimed and not yet settled
 * @param dead           dead rows
 * @param bytes          sum of envelope sizes of every delivery row that exists
 * @param archivePending hooks still to be archived
 */
public record QueueStats(long pending, long scheduled, long inflight, long dead, long bytes, long archivePending) {
}
