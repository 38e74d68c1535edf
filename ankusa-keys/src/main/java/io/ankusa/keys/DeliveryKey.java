package io.ankusa.keys;

/**
 * A delivery row: one per (hook, sink) that is still owed, whatever its state (due, inflight,
 * dead). It always has exactly one index key, changed in the same batch.
 *
 * <pre>
 * column family  deliveries
 * key            | seq u64 | sink u16 |   10 bytes
 * value          the delivery row (versioned codec of the queue)
 * sentinels      lo = 10 x 0x00, hi = 10 x 0xFF
 * </pre>
 *
 * @param seq  the hook's seq
 * @param sink sink number
 */
public record DeliveryKey(long seq, int sink) {

    /** Encoded key length. */
    public static final int LENGTH = 10;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY =
            KeyFamily.fixed("deliveries", ColumnFamilies.DELIVERIES, new byte[0], LENGTH);

    /** Checks the ranges. */
    public DeliveryKey {
        Ordinals.requireNonNegative("seq", seq);
        Ordinals.requireSink(sink);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        BigEndian.putU64(out, 0, seq);
        BigEndian.putU16(out, 8, sink);
        return out;
    }

    /** Decodes; refuses anything else (including a sentinel). */
    public static DeliveryKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || FAMILY.isSentinel(key) || (key[0] & 0x80) != 0) {
            throw new KeyFormatException("deliveries", "10 bytes <<seq::64, sink::16>>", key);
        }
        return new DeliveryKey(BigEndian.u64(key, 0), BigEndian.u16(key, 8));
    }

    /** Every delivery row of hook {@code seq}. */
    public static KeySpan hookRange(long seq) {
        Ordinals.requireNonNegative("seq", seq);
        return KeySpan.prefix(BigEndian.u64(seq));
    }
}
