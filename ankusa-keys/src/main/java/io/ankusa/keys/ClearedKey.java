package io.ankusa.keys;

/**
 * A cleared marker: a delivery row of hook {@code seq} was removed (delivered, purged, dropped),
 * so reclaim should check whether anybody still owes the hook.
 *
 * <pre>
 * column family  index
 * key            | 'c' | seq u64 |   9 bytes
 * value          empty
 * sentinels      lo = 'c' + 8 x 0x00, hi = 'c' + 8 x 0xFF
 * </pre>
 *
 * @param seq the hook's seq
 */
public record ClearedKey(long seq) {

    /** Encoded key length. */
    public static final int LENGTH = 9;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY =
            KeyFamily.fixed("cleared", ColumnFamilies.INDEX, new byte[] {Prefixes.CLEARED}, LENGTH - 1);

    /** Checks the range. */
    public ClearedKey {
        Ordinals.requireNonNegative("seq", seq);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.CLEARED;
        BigEndian.putU64(out, 1, seq);
        return out;
    }

    /** Decodes a cleared key; refuses anything else (including a sentinel). */
    public static ClearedKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.CLEARED || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("cleared", LENGTH + " bytes starting with 'c'", key);
        }
        long seq = BigEndian.u64(key, 1);
        if (seq < 0) {
            throw new KeyFormatException("cleared", "seq >= 0", key);
        }
        return new ClearedKey(seq);
    }
}
