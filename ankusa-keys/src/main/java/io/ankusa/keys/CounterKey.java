package io.ankusa.keys;

/**
 * A counter row: one per (ordinal, field); ordinal 0 is the node aggregate. Values are merge
 * operand sums (8-byte little-endian, the store's counter format), never put.
 *
 * <pre>
 * column family  counters (a counter family)
 * key            | ord u32 | field u8 |   5 bytes
 * fields         1 pending, 2 scheduled, 3 inflight, 4 dead, 5 bytes, 6 archive_pending,
 *                7 quarantined, 8 history_bytes (key and value bytes of every attempt history key)
 * sentinels      lo = 00 00 00 00 00, hi = FF FF FF FF FF   (merged with 0)
 * </pre>
 *
 * @param ord   tenant ordinal, or 0 for the aggregate
 * @param field field number 1..8
 */
public record CounterKey(long ord, int field) {

    /** Encoded key length. */
    public static final int LENGTH = 5;
    /** Lowest field number. */
    public static final int FIRST_FIELD = 1;
    /** Highest field number. */
    public static final int LAST_FIELD = 8;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = KeyFamily.fixed("counters", ColumnFamilies.COUNTERS, new byte[0], LENGTH);

    /** Checks the ranges. */
    public CounterKey {
        Ordinals.requireCounterOwner(ord);
        if (field < FIRST_FIELD || field > LAST_FIELD) {
            throw new IllegalArgumentException("counter field out of range 1.." + LAST_FIELD + ": " + field);
        }
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        BigEndian.putU32(out, 0, ord);
        out[4] = (byte) field;
        return out;
    }

    /** Decodes; refuses anything else (including a sentinel). */
    public static CounterKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("counters", "5 bytes <<ord::32, field::8>>", key);
        }
        try {
            return new CounterKey(BigEndian.u32(key, 0), key[4] & 0xFF);
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("counters", "ord 0..0xFFFFFFFE and field 1..8", key);
        }
    }
}
