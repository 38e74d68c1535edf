package io.ankusa.keys;

/**
 * An audit entry: an operator action (purge, replay, …) in the audit column family, ordered by
 * its audit sequence number, so the newest entry is the last key. The tenant acted on is a field
 * of the value, not part of the key (format 3 leaves the audit trail as it was).
 *
 * <pre>
 * column family  audit
 * key            | 'a' | seq u64 | at u64 (epoch ms) |   17 bytes
 * value          the audit record (versioned codec of the queue)
 * sentinels      lo = 'a' + 16 x 0x00, hi = 'a' + 16 x 0xFF
 * </pre>
 *
 * @param seq the audit sequence number (1, 2, 3, …; not the hook seq)
 * @param at  when the action was recorded, epoch milliseconds
 */
public record AuditKey(long seq, long at) {

    /** Encoded key length. */
    public static final int LENGTH = 17;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY =
            KeyFamily.fixed("audit", ColumnFamilies.AUDIT, new byte[] {Prefixes.ARCHIVE}, LENGTH - 1);

    /** Checks the ranges. */
    public AuditKey {
        Ordinals.requireNonNegative("seq", seq);
        Ordinals.requireNonNegative("at", at);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.ARCHIVE;
        BigEndian.putU64(out, 1, seq);
        BigEndian.putU64(out, 9, at);
        return out;
    }

    /** Decodes an audit key; refuses anything else (including a sentinel). */
    public static AuditKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.ARCHIVE || FAMILY.isSentinel(key)
                || (key[1] & 0x80) != 0 || (key[9] & 0x80) != 0) {
            throw new KeyFormatException("audit", LENGTH + " bytes <<'a', seq::64, at::64>>", key);
        }
        return new AuditKey(BigEndian.u64(key, 1), BigEndian.u64(key, 9));
    }

    /** Every entry with an audit seq below {@code seq}, for reading back from there. */
    public static KeySpan before(long seq) {
        Ordinals.requireNonNegative("seq", seq);
        byte[] end = new byte[9];
        end[0] = Prefixes.ARCHIVE;
        BigEndian.putU64(end, 1, seq);
        return new KeySpan(FAMILY.between().from(), end);
    }
}
