package io.ankusa.keys;

/**
 * Tenant ordinals as they appear in keys: u32, {@code 0} is the node aggregate, real tenants are
 * {@code 1 .. 0xFFFFFFFE}; {@code 0xFFFFFFFF} is never a tenant (it is the hi sentinel's ord).
 */
public final class Ordinals {

    /** The node aggregate's ordinal. */
    public static final long AGGREGATE = 0;

    /** The first real tenant's ordinal. */
    public static final long FIRST = 1;

    /** The largest ordinal a tenant can have. */
    public static final long MAX = 0xFFFF_FFFEL;

    private Ordinals() {
    }

    /** Checks {@code ord} is a real tenant's ordinal. */
    public static long requireTenant(long ord) {
        if (ord < FIRST || ord > MAX) {
            throw new IllegalArgumentException("tenant ordinal out of range 1.." + MAX + ": " + ord);
        }
        return ord;
    }

    /** Checks {@code ord} is a tenant's or the aggregate's ordinal. */
    public static long requireCounterOwner(long ord) {
        if (ord < AGGREGATE || ord > MAX) {
            throw new IllegalArgumentException("ordinal out of range 0.." + MAX + ": " + ord);
        }
        return ord;
    }

    static void requireNonNegative(String what, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " must be >= 0: " + value);
        }
    }

    /** Refuses a sink number outside u16. */
    static void requireSink(int sink) {
        if (sink < 0 || sink > BigEndian.U16_MAX) {
            throw new IllegalArgumentException("sink out of range 0..65535: " + sink);
        }
    }
}
