package io.ankusa.keys;

/**
 * A quarantined delivery: a due row moved aside because its hook (or its delivery row) is stored
 * but does not decode. The delivery row and the hook stay where they are, untouched, so nothing
 * acknowledged is deleted; the row is no longer due, so it blocks nothing. An operator lists,
 * releases (back to due) or purges (audited) these rows.
 *
 * <pre>
 * column family  index
 * key            | 'Q' | ord u32 | seq u64 | sink u16 |              15 bytes
 * value          | size u32 | reason u8 | quarantined at u64 |      13 bytes
 * sentinels      lo = 'Q' + 14 x 0x00, hi = 'Q' + 14 x 0xFF
 * reasons        1 the hook does not decode, 2 the delivery row does not decode
 * </pre>
 *
 * <p>Added to store format 3 without a new format number: an older release of format 3 never
 * reads a {@code 'Q'} key, and opening a format-3 store that lacks the family's sentinels writes
 * them. Only {@code io.ankusa.queue.deliveries} constructs these keys.
 *
 * @param ord  tenant ordinal
 * @param seq  the hook's seq
 * @param sink sink number
 */
public record QuarantineKey(long ord, long seq, int sink) {

    /** Encoded key length. */
    public static final int LENGTH = 15;
    /** Encoded value length. */
    public static final int VALUE_LENGTH = 13;
    /** Reason 1: the stored hook does not decode. */
    public static final int REASON_HOOK = 1;
    /** Reason 2: the stored delivery row does not decode. */
    public static final int REASON_DELIVERY_ROW = 2;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = KeyFamily.fixed("quarantine", ColumnFamilies.INDEX,
            new byte[] {Prefixes.QUARANTINE}, LENGTH - 1);

    /** Checks the ranges. */
    public QuarantineKey {
        Ordinals.requireTenant(ord);
        Ordinals.requireNonNegative("seq", seq);
        Ordinals.requireSink(sink);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.QUARANTINE;
        BigEndian.putU32(out, 1, ord);
        BigEndian.putU64(out, 5, seq);
        BigEndian.putU16(out, 13, sink);
        return out;
    }

    /** Decodes a quarantine key; refuses anything else (including a sentinel). */
    public static QuarantineKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.QUARANTINE || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("quarantine", LENGTH + " bytes starting with 'Q'", key);
        }
        try {
            return new QuarantineKey(BigEndian.u32(key, 1), BigEndian.u64(key, 5), BigEndian.u16(key, 13));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("quarantine", "ord 1..0xFFFFFFFE and seq >= 0", key);
        }
    }

    /** One tenant's quarantined rows, in (seq, sink) order. */
    public static KeySpan tenantRange(long ord) {
        byte[] prefix = new byte[5];
        prefix[0] = Prefixes.QUARANTINE;
        BigEndian.putU32(prefix, 1, Ordinals.requireTenant(ord));
        return KeySpan.prefix(prefix);
    }

    /**
     * A quarantine value.
     *
     * @param size          the envelope size the due row carried
     * @param reason        {@link #REASON_HOOK} or {@link #REASON_DELIVERY_ROW}
     * @param quarantinedAt when the row was moved aside, epoch milliseconds
     */
    public record Value(long size, int reason, long quarantinedAt) {
    }

    /** The value bytes. */
    public static byte[] value(long size, int reason, long quarantinedAt) {
        if (reason != REASON_HOOK && reason != REASON_DELIVERY_ROW) {
            throw new IllegalArgumentException("quarantine reason must be 1 or 2: " + reason);
        }
        byte[] out = new byte[VALUE_LENGTH];
        BigEndian.putU32(out, 0, size);
        out[4] = (byte) reason;
        Ordinals.requireNonNegative("quarantinedAt", quarantinedAt);
        BigEndian.putU64(out, 5, quarantinedAt);
        return out;
    }

    /** Decodes a value. */
    public static Value decodeValue(byte[] value) {
        if (value == null || value.length != VALUE_LENGTH
                || (value[4] != REASON_HOOK && value[4] != REASON_DELIVERY_ROW)) {
            throw new KeyFormatException("quarantine value", VALUE_LENGTH + " bytes <<size::32, reason::8, at::64>>",
                    value);
        }
        return new Value(BigEndian.u32(value, 0), value[4], BigEndian.u64(value, 5));
    }
}
