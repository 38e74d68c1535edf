package io.ankusa.keys;

/**
 * An inflight row: a delivery claimed by the pipeline and not yet settled.
 *
 * <pre>
 * column family  index
 * key            | 'F' | ord u32 | seq u64 | sink u16 |   15 bytes
 * value          | size u32 |                              4 bytes
 *                | size u32 | group u64 |                 12 bytes, an ordered row (its {@link OrderKey} group)
 * sentinels      lo = 'F' + 14 x 0x00, hi = 'F' + 14 x 0xFF
 * </pre>
 *
 * <p>Only {@code io.ankusa.queue.deliveries} constructs these keys (checked by an architecture rule).
 *
 * @param ord  tenant ordinal
 * @param seq  the hook's seq
 * @param sink sink number
 */
public record InflightKey(long ord, long seq, int sink) {

    /** Encoded key length. */
    public static final int LENGTH = 15;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY =
            KeyFamily.fixed("inflight", ColumnFamilies.INDEX, new byte[] {Prefixes.INFLIGHT}, LENGTH - 1);

    /** Checks the ranges. */
    public InflightKey {
        Ordinals.requireTenant(ord);
        Ordinals.requireNonNegative("seq", seq);
        Ordinals.requireSink(sink);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.INFLIGHT;
        BigEndian.putU32(out, 1, ord);
        BigEndian.putU64(out, 5, seq);
        BigEndian.putU16(out, 13, sink);
        return out;
    }

    /** Decodes an inflight key; refuses anything else (including a sentinel). */
    public static InflightKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.INFLIGHT || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("inflight", LENGTH + " bytes starting with 'F'", key);
        }
        try {
            return new InflightKey(BigEndian.u32(key, 1), BigEndian.u64(key, 5), BigEndian.u16(key, 13));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("inflight", "ord 1..0xFFFFFFFE and seq >= 0", key);
        }
    }

    /** One tenant's inflight rows. */
    public static KeySpan tenantRange(long ord) {
        byte[] prefix = new byte[5];
        prefix[0] = Prefixes.INFLIGHT;
        BigEndian.putU32(prefix, 1, Ordinals.requireTenant(ord));
        return KeySpan.prefix(prefix);
    }

    /** The value of an unordered row: the envelope size. */
    public static byte[] value(long size) {
        return BigEndian.u32(size);
    }

    /** The value of a row of ordering group {@code group} ({@link DueKey#UNORDERED} for none). */
    public static byte[] value(long size, long group) {
        if (group == DueKey.UNORDERED) {
            return value(size);
        }
        byte[] out = new byte[12];
        BigEndian.putU32(out, 0, size);
        BigEndian.putU64(out, 4, group);
        return out;
    }

    /** Decodes the value's envelope size. */
    public static long decodeValue(byte[] value) {
        check(value);
        return BigEndian.u32(value, 0);
    }

    /** Decodes the value's ordering group ({@link DueKey#UNORDERED} for an unordered row). */
    public static long decodeGroup(byte[] value) {
        check(value);
        return value.length == 4 ? DueKey.UNORDERED : BigEndian.u64(value, 4);
    }

    private static void check(byte[] value) {
        if (value == null || (value.length != 4 && value.length != 12)
                || (value.length == 12 && BigEndian.u64(value, 4) == DueKey.UNORDERED)) {
            throw new KeyFormatException("inflight value", "4 bytes <<size::32>> or 12 with a group::64 other than 0",
                    value);
        }
    }
}
