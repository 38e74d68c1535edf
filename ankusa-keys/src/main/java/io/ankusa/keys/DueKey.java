package io.ankusa.keys;

/**
 * A due row: a delivery waiting for its time, keyed by tenant first so that a tenant's due rows
 * are one range ordered by {@code at}.
 *
 * <pre>
 * column family  index
 * key            | 'D' | ord u32 | at u64 (epoch ms) | seq u64 | sink u16 |   23 bytes
 * value          | size u32 | kind u8 |                                      5 bytes
 *                | size u32 | kind u8 | group u64 |                         13 bytes, an ordered row
 * kind           0 = first attempt (ingest, revival, recovery, expansion), 1 = retry
 * group          the row's ordering group ({@link OrderKey}), never 0; absent for an unordered row
 * sentinels      lo = 'D' + 22 x 0x00, hi = 'D' + 22 x 0xFF
 * </pre>
 *
 * <p>Only {@code io.ankusa.queue.deliveries} constructs these keys (checked by an architecture rule).
 *
 * @param ord  tenant ordinal (1..0xFFFFFFFE)
 * @param at   when the row is due, epoch milliseconds (>= 0)
 * @param seq  the hook's commit sequence number (>= 0)
 * @param sink sink number (u16)
 */
public record DueKey(long ord, long at, long seq, int sink) {

    /** Encoded key length. */
    public static final int LENGTH = 23;
    /** Encoded value length of an unordered row. */
    public static final int VALUE_LENGTH = 5;
    /** Encoded value length of an ordered row (with its ordering group). */
    public static final int ORDERED_VALUE_LENGTH = 13;
    /** The group of an unordered row. */
    public static final long UNORDERED = 0;
    /** Kind of a first-attempt row. */
    public static final int KIND_FIRST = 0;
    /** Kind of a retry row. */
    public static final int KIND_RETRY = 1;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY =
            KeyFamily.fixed("due", ColumnFamilies.INDEX, new byte[] {Prefixes.DUE}, LENGTH - 1);

    /** Checks the ranges. */
    public DueKey {
        Ordinals.requireTenant(ord);
        Ordinals.requireNonNegative("at", at);
        Ordinals.requireNonNegative("seq", seq);
        Ordinals.requireSink(sink);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.DUE;
        BigEndian.putU32(out, 1, ord);
        BigEndian.putU64(out, 5, at);
        BigEndian.putU64(out, 13, seq);
        BigEndian.putU16(out, 21, sink);
        return out;
    }

    /** Decodes a due key; refuses anything else (including a sentinel). */
    public static DueKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.DUE || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("due", LENGTH + " bytes starting with 'D'", key);
        }
        try {
            return new DueKey(BigEndian.u32(key, 1), BigEndian.u64(key, 5), BigEndian.u64(key, 13),
                    BigEndian.u16(key, 21));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("due", "ord 1..0xFFFFFFFE and at, seq >= 0", key);
        }
    }

    /** The range of one tenant's due rows: every key starting {@code 'D', ord}. */
    public static KeySpan tenantRange(long ord) {
        return KeySpan.prefix(tenantPrefix(ord));
    }

    /** One tenant's due rows with {@code fromAt <= at <= toAt}. */
    public static KeySpan tenantRange(long ord, long fromAt, long toAt) {
        Ordinals.requireNonNegative("fromAt", fromAt);
        if (toAt < fromAt) {
            throw new IllegalArgumentException("toAt before fromAt: " + toAt + " < " + fromAt);
        }
        byte[] from = new byte[13];
        from[0] = Prefixes.DUE;
        BigEndian.putU32(from, 1, Ordinals.requireTenant(ord));
        BigEndian.putU64(from, 5, fromAt);
        byte[] to = from.clone();
        if (toAt == Long.MAX_VALUE) {
            return new KeySpan(from, KeySpan.prefix(tenantPrefix(ord)).to());
        }
        BigEndian.putU64(to, 5, toAt + 1);
        return new KeySpan(from, to);
    }

    private static byte[] tenantPrefix(long ord) {
        byte[] prefix = new byte[5];
        prefix[0] = Prefixes.DUE;
        BigEndian.putU32(prefix, 1, Ordinals.requireTenant(ord));
        return prefix;
    }

    /** The value of an unordered due row. */
    public static byte[] value(long size, int kind) {
        return value(size, kind, UNORDERED);
    }

    /** The value of a due row of ordering group {@code group} ({@link #UNORDERED} for none). */
    public static byte[] value(long size, int kind, long group) {
        if (kind != KIND_FIRST && kind != KIND_RETRY) {
            throw new IllegalArgumentException("due kind must be 0 or 1: " + kind);
        }
        byte[] out = new byte[group == UNORDERED ? VALUE_LENGTH : ORDERED_VALUE_LENGTH];
        BigEndian.putU32(out, 0, size);
        out[4] = (byte) kind;
        if (group != UNORDERED) {
            BigEndian.putU64(out, 5, group);
        }
        return out;
    }

    /** Decodes a due value. */
    public static Value decodeValue(byte[] value) {
        if (value == null || (value.length != VALUE_LENGTH && value.length != ORDERED_VALUE_LENGTH)
                || (value[4] != KIND_FIRST && value[4] != KIND_RETRY)
                || (value.length == ORDERED_VALUE_LENGTH && BigEndian.u64(value, 5) == UNORDERED)) {
            throw new KeyFormatException("due value",
                    "5 bytes <<size::32, kind::8>> or 13 with a group::64 other than 0, kind 0 or 1", value);
        }
        return new Value(BigEndian.u32(value, 0), value[4],
                value.length == ORDERED_VALUE_LENGTH ? BigEndian.u64(value, 5) : UNORDERED);
    }

    /**
     * A decoded due value.
     *
     * @param size  the hook's envelope size in bytes
     * @param kind  {@link #KIND_FIRST} or {@link #KIND_RETRY}
     * @param group the row's ordering group, {@link #UNORDERED} for none
     */
    public record Value(long size, int kind, long group) {

        /** An unordered row's value. */
        public Value(long size, int kind) {
            this(size, kind, UNORDERED);
        }
    }
}
