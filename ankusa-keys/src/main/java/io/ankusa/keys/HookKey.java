package io.ankusa.keys;

/**
 * A hook envelope, by commit sequence number. {@code seq} is commit order: 1, 2, 3, … assigned by
 * the ingest writer.
 *
 * <pre>
 * column family  hooks
 * key            | seq u64 |   8 bytes
 * value          the hook envelope (versioned codec of the queue)
 * sentinels      lo = 8 x 0x00 (seq 0 is never assigned), hi = 8 x 0xFF
 * </pre>
 *
 * @param seq the hook's seq
 */
public record HookKey(long seq) {

    /** Encoded key length. */
    public static final int LENGTH = 8;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = KeyFamily.fixed("hooks", ColumnFamilies.HOOKS, new byte[0], LENGTH);

    /** Checks the range. */
    public HookKey {
        Ordinals.requireNonNegative("seq", seq);
    }

    /** The key bytes. */
    public byte[] encode() {
        return BigEndian.u64(seq);
    }

    /** Decodes; refuses anything else (including a sentinel). */
    public static HookKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || FAMILY.isSentinel(key) || (key[0] & 0x80) != 0) {
            throw new KeyFormatException("hooks", "8 bytes <<seq::64>> with seq >= 1", key);
        }
        return new HookKey(BigEndian.u64(key, 0));
    }
}
