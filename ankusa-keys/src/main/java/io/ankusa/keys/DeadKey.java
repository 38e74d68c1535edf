package io.ankusa.keys;

import java.nio.charset.StandardCharsets;

/**
 * A dead row (the DLQ), in global time order: the unfiltered listing is "newest first across the
 * node", so this key keeps time first; {@link DeadByTenantKey} is its by-tenant companion.
 *
 * <pre>
 * column family  index
 * key            | 'x' | at u64 (epoch ms) | seq u64 | sink u16 |                  19 bytes
 * value          | ord u32 | source_len u32 | source_id utf8 | id_len u32 | hook id utf8 |
 * sentinels      lo = 'x' + 18 x 0x00, hi = 'x' + 18 x 0xFF
 * </pre>
 *
 * @param at   when the row was dead-lettered, epoch milliseconds
 * @param seq  the hook's seq
 * @param sink sink number
 */
public record DeadKey(long at, long seq, int sink) {

    /** Encoded key length. */
    public static final int LENGTH = 19;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY =
            KeyFamily.fixed("dead", ColumnFamilies.INDEX, new byte[] {Prefixes.DEAD}, LENGTH - 1);

    /** Checks the ranges. */
    public DeadKey {
        Ordinals.requireNonNegative("at", at);
        Ordinals.requireNonNegative("seq", seq);
        Ordinals.requireSink(sink);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.DEAD;
        BigEndian.putU64(out, 1, at);
        BigEndian.putU64(out, 9, seq);
        BigEndian.putU16(out, 17, sink);
        return out;
    }

    /** Decodes a dead key; refuses anything else (including a sentinel). */
    public static DeadKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.DEAD || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("dead", LENGTH + " bytes starting with 'x'", key);
        }
        try {
            return new DeadKey(BigEndian.u64(key, 1), BigEndian.u64(key, 9), BigEndian.u16(key, 17));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("dead", "at, seq >= 0", key);
        }
    }

    /** The value: owner tenant ordinal, source id and hook id. */
    public static byte[] value(long ord, String sourceId, String hookId) {
        byte[] source = StrictUtf8.encode("source id", sourceId);
        byte[] id = StrictUtf8.encode("hook id", hookId);
        byte[] out = new byte[4 + 4 + source.length + 4 + id.length];
        BigEndian.putU32(out, 0, Ordinals.requireTenant(ord));
        BigEndian.putU32(out, 4, source.length);
        System.arraycopy(source, 0, out, 8, source.length);
        BigEndian.putU32(out, 8 + source.length, id.length);
        System.arraycopy(id, 0, out, 12 + source.length, id.length);
        return out;
    }

    /** Decodes the value. */
    public static Value decodeValue(byte[] value) {
        String expected = "<<ord::32, source_len::32, source, id_len::32, id>>";
        if (value == null || value.length < 12) {
            throw new KeyFormatException("dead value", expected, value);
        }
        long ord = BigEndian.u32(value, 0);
        long sourceLength = BigEndian.u32(value, 4);
        if (ord < Ordinals.FIRST || ord > Ordinals.MAX || sourceLength > value.length - 12) {
            throw new KeyFormatException("dead value", expected, value);
        }
        int s = (int) sourceLength;
        long idLength = BigEndian.u32(value, 8 + s);
        if (idLength != value.length - 12L - s) {
            throw new KeyFormatException("dead value", expected, value);
        }
        return new Value(ord, new String(value, 8, s, StandardCharsets.UTF_8),
                new String(value, 12 + s, (int) idLength, StandardCharsets.UTF_8));
    }

    /**
     * A decoded dead value.
     *
     * @param ord      owner tenant ordinal
     * @param sourceId the hook's source id
     * @param hookId   the hook's id
     */
    public record Value(long ord, String sourceId, String hookId) {
    }
}
