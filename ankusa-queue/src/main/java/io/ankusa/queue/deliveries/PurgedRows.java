package io.ankusa.queue.deliveries;

/**
 * What one purge chunk removed, as stored.
 *
 * @param pending   first-attempt due rows
 * @param scheduled retry due rows
 * @param dead      dead rows
 * @param bytes     their summed sizes
 */
public record PurgedRows(long pending, long scheduled, long dead, long bytes) {

    /** Nothing. */
    public static final PurgedRows NONE = new PurgedRows(0, 0, 0, 0);

    /** Rows removed. */
    public int rows() {
        return Math.toIntExact(pending + scheduled + dead);
    }

    /** The sum of this and {@code other}. */
    public PurgedRows plus(PurgedRows other) {
        return new PurgedRows(pending + other.pending, scheduled + other.scheduled, dead + other.dead,
                bytes + other.bytes);
    }
}
