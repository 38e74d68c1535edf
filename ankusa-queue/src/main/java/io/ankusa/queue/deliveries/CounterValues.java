package io.ankusa.queue.deliveries;

import io.ankusa.api.DeadStats;
import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantStats;

/**
 * The eight counters of one ordinal as read.
 *
 * @param pending        field 1
 * @param scheduled      field 2
 * @param inflight       field 3
 * @param dead           field 4
 * @param bytes          field 5
 * @param archivePending field 6
 * @param quarantined    field 7
 * @param historyBytes   field 8
 */
public record CounterValues(long pending, long scheduled, long inflight, long dead, long bytes, long archivePending,
        long quarantined, long historyBytes) {

    /** All zero. */
    public static final CounterValues ZERO = new CounterValues(0, 0, 0, 0, 0, 0, 0, 0);

    /** The value of {@code field}. */
    public long get(CounterField field) {
        return switch (field) {
            case PENDING -> pending;
            case SCHEDULED -> scheduled;
            case INFLIGHT -> inflight;
            case DEAD -> dead;
            case BYTES -> bytes;
            case ARCHIVE_PENDING -> archivePending;
            case QUARANTINED -> quarantined;
            case HISTORY_BYTES -> historyBytes;
        };
    }

    /** As a tenant's backlog. */
    public TenantStats tenantStats() {
        return new TenantStats(pending, scheduled, inflight, dead, bytes, quarantined);
    }

    /** As a tenant's dead letters. */
    public DeadStats deadStats() {
        return new DeadStats(dead);
    }

    /** As the node aggregate. */
    public QueueStats queueStats() {
        return new QueueStats(pending, scheduled, inflight, dead, bytes, archivePending, quarantined);
    }
}
