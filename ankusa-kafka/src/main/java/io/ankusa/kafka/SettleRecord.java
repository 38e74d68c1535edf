package io.ankusa.kafka;

/**
 * One settled delivery as published to the compacted settles topic ({@code <topic>.settled}), in the
 * partition of the intake partition whose store settled it. The key names the delivery by the
 * hook's intake offset and the sink, so compaction keeps one record per (partition, hook, sink); a
 * tombstone (null value) says the committed watermark has passed the hook, so no node reads it at
 * intake again.
 *
 * <p>Key: {@code offset US sink} (both in decimal; US = U+001F). Value: {@code version u8 (1) |
 * result u8 (1 delivered, 2 dead)}.
 *
 * @param offset the hook's intake offset in its partition
 * @param sink   the sink id
 * @param dead   whether the delivery was dead-lettered (else delivered)
 */
record SettleRecord(long offset, int sink, boolean dead) {

    private static final int VERSION = 1;
    private static final int DELIVERED = 1;
    private static final int DEAD = 2;
    private static final char SEPARATOR = '\u001f';

    SettleRecord {
        if (offset < 0) {
            throw new IllegalArgumentException("a settle's intake offset must not be negative: " + offset);
        }
        if (sink < 0 || sink > 0xffff) {
            throw new IllegalArgumentException("a settle's sink must be 0..65535: " + sink);
        }
    }

    /** The record key of a delivery: one per (hook, sink) of a partition. */
    static String key(long offset, int sink) {
        return Long.toString(offset) + SEPARATOR + sink;
    }

    String key() {
        return key(offset, sink);
    }

    byte[] encode() {
        return new byte[] {VERSION, (byte) (dead ? DEAD : DELIVERED)};
    }

    /**
     * Decodes a record from its key and value.
     *
     * @throws IllegalArgumentException when it is not a settle record this version writes
     */
    static SettleRecord decode(String key, byte[] value) {
        int at = key == null ? -1 : key.indexOf(SEPARATOR);
        if (at <= 0 || at == key.length() - 1) {
            throw new IllegalArgumentException("not a settle record key: " + key);
        }
        long offset;
        int sink;
        try {
            offset = Long.parseLong(key.substring(0, at));
            sink = Integer.parseInt(key.substring(at + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a settle record key: " + key, e);
        }
        if (value.length != 2 || value[0] != VERSION) {
            throw new IllegalArgumentException("unknown settle record (" + value.length + " bytes, version "
                    + (value.length == 0 ? "none" : Integer.toString(value[0])) + ")");
        }
        if (value[1] != DELIVERED && value[1] != DEAD) {
            throw new IllegalArgumentException("unknown settle result " + value[1]);
        }
        return new SettleRecord(offset, sink, value[1] == DEAD);
    }

    /** The intake offset a key names, or -1 when it is not a settle key. */
    static long offsetOf(String key) {
        int at = key == null ? -1 : key.indexOf(SEPARATOR);
        if (at <= 0) {
            return -1;
        }
        try {
            return Long.parseLong(key.substring(0, at));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
