package io.ankusa.queue.deliveries;

/** The eight per-tenant counters and their field numbers in the counter key {@code <<ord::32, field::8>>}. */
public enum CounterField {
    /** Due rows of kind 0 (first attempt). */
    PENDING(1),
    /** Due rows of kind 1 (retry). */
    SCHEDULED(2),
    /** Inflight rows. */
    INFLIGHT(3),
    /** Dead rows. */
    DEAD(4),
    /** Sum of envelope sizes over every delivery row that exists. */
    BYTES(5),
    /** Archive obligations. */
    ARCHIVE_PENDING(6),
    /** Quarantined rows (moved aside: their hook or delivery row does not decode). */
    QUARANTINED(7),
    /**
     * Key and value bytes of every attempt history key ({@code ?H}: by tenant, by hook, slot),
     * changed in the batches that write and delete them.
     */
    HISTORY_BYTES(8);

    private final int number;

    CounterField(int number) {
        this.number = number;
    }

    /** The field number stored in the key. */
    public int number() {
        return number;
    }
}
