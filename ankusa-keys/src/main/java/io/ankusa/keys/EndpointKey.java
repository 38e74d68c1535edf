package io.ankusa.keys;

/**
 * The stored state of one endpoint, a tenant's sink: disabled (why and since when), or active but
 * failing since a time (so the "failing for too long" rule needs no history scan). An endpoint
 * with no key is active and not failing; only endpoints that are disabled or failing have one.
 *
 * <pre>
 * column family  index
 * key            | 'E' | ord u32 | sink u16 |                                       7 bytes
 * value          | state u8 | reason u8 | since u64 | failing since u64 |           18 bytes
 * sentinels      lo = 'E' + 6 x 0x00, hi = 'E' + 6 x 0xFF
 * states         1 active (failing since the time in the value), 2 disabled
 * reasons        0 none (active), 1 gone (the endpoint answered 410), 2 failing (failed
 *                continuously for the configured time), 3 operator
 * since          when the endpoint was disabled (epoch ms; 0 while active)
 * failing since  the first failure after the last success (epoch ms; 0 when none)
 * </pre>
 *
 * <p>Added to store format 3 without a new format number, like {@link QuarantineKey}: an older
 * release of format 3 never reads an {@code 'E'} key, and opening a format-3 store that lacks the
 * family's sentinels writes them. Only {@code io.ankusa.queue.deliveries} constructs these keys.
 *
 * @param ord  tenant ordinal
 * @param sink sink number
 */
public record EndpointKey(long ord, int sink) {

    /** Encoded key length. */
    public static final int LENGTH = 7;
    /** Encoded value length. */
    public static final int VALUE_LENGTH = 18;
    /** State 1: active, failing since a time. */
    public static final int STATE_ACTIVE = 1;
    /** State 2: disabled. */
    public static final int STATE_DISABLED = 2;
    /** Reason 0: none (an active endpoint). */
    public static final int REASON_NONE = 0;
    /** Reason 1: the endpoint answered {@code 410 Gone}. */
    public static final int REASON_GONE = 1;
    /** Reason 2: the endpoint failed continuously for the configured time. */
    public static final int REASON_FAILING = 2;
    /** Reason 3: an operator disabled it. */
    public static final int REASON_OPERATOR = 3;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = KeyFamily.fixed("endpoints", ColumnFamilies.INDEX,
            new byte[] {Prefixes.ENDPOINT}, LENGTH - 1);

    /** Checks the ranges. */
    public EndpointKey {
        Ordinals.requireTenant(ord);
        Ordinals.requireSink(sink);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.ENDPOINT;
        BigEndian.putU32(out, 1, ord);
        BigEndian.putU16(out, 5, sink);
        return out;
    }

    /** Decodes an endpoint key; refuses anything else (including a sentinel). */
    public static EndpointKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.ENDPOINT || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("endpoint", LENGTH + " bytes starting with 'E'", key);
        }
        try {
            return new EndpointKey(BigEndian.u32(key, 1), BigEndian.u16(key, 5));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("endpoint", "ord 1..0xFFFFFFFE", key);
        }
    }

    /** One tenant's endpoint keys, in sink order. */
    public static KeySpan tenantRange(long ord) {
        byte[] prefix = new byte[5];
        prefix[0] = Prefixes.ENDPOINT;
        BigEndian.putU32(prefix, 1, Ordinals.requireTenant(ord));
        return KeySpan.prefix(prefix);
    }

    /**
     * An endpoint value.
     *
     * @param state        {@link #STATE_ACTIVE} or {@link #STATE_DISABLED}
     * @param reason       one of the {@code REASON_} codes ({@link #REASON_NONE} exactly when active)
     * @param since        when it was disabled, epoch ms (0 while active)
     * @param failingSince the first failure after the last success, epoch ms (0 when none)
     */
    public record Value(int state, int reason, long since, long failingSince) {

        /** Checks the codes and times. */
        public Value {
            boolean active = state == STATE_ACTIVE && reason == REASON_NONE;
            boolean disabled = state == STATE_DISABLED && reason >= REASON_GONE && reason <= REASON_OPERATOR;
            if (!active && !disabled) {
                throw new IllegalArgumentException("endpoint state " + state + " with reason " + reason);
            }
            Ordinals.requireNonNegative("since", since);
            Ordinals.requireNonNegative("failingSince", failingSince);
        }

        /** The value bytes. */
        public byte[] encode() {
            byte[] out = new byte[VALUE_LENGTH];
            out[0] = (byte) state;
            out[1] = (byte) reason;
            BigEndian.putU64(out, 2, since);
            BigEndian.putU64(out, 10, failingSince);
            return out;
        }
    }

    /** Decodes a value. */
    public static Value decodeValue(byte[] value) {
        if (value == null || value.length != VALUE_LENGTH) {
            throw new KeyFormatException("endpoint value", VALUE_LENGTH
                    + " bytes <<state::8, reason::8, since::64, failing::64>>", value);
        }
        try {
            return new Value(value[0], value[1], BigEndian.u64(value, 2), BigEndian.u64(value, 10));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("endpoint value", "state 1 with reason 0, or state 2 with reason 1..3", value);
        }
    }
}
