package io.ankusa.keys;

/**
 * A dead row's by-tenant companion: one per {@link DeadKey}, written and deleted with it, so a
 * tenant's dead rows are one range; joined to the dead key through (at, seq, sink).
 *
 * <pre>
 * column family  index
 * key            | 'X' | ord u32 | at u64 | seq u64 | sink u16 |   23 bytes
 * value          empty
 * sentinels      lo = 'X' + 22 x 0x00, hi = 'X' + 22 x 0xFF
 * </pre>
 *
 * <p>Only {@code io.ankusa.queue.deliveries} constructs these keys (checked by an architecture rule).
 *
 * @param ord  tenant ordinal
 * @param at   when the row was dead-lettered
 * @param seq  the hook's seq
 * @param sink sink number
 */
public record DeadByTenantKey(long ord, long at, long seq, int sink) {

    /** Encoded key length. */
    public static final int LENGTH = 23;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = KeyFamily.fixed("dead_by_tenant", ColumnFamilies.INDEX,
            new byte[] {Prefixes.DEAD_BY_TENANT}, LENGTH - 1);

    /** Checks the ranges. */
    public DeadByTenantKey {
        Ordinals.requireTenant(ord);
        Ordinals.requireNonNegative("at", at);
        Ordinals.requireNonNegative("seq", seq);
        Ordinals.requireSink(sink);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.DEAD_BY_TENANT;
        BigEndian.putU32(out, 1, ord);
        BigEndian.putU64(out, 5, at);
        BigEndian.putU64(out, 13, seq);
        BigEndian.putU16(out, 21, sink);
        return out;
    }

    /** Decodes a dead-by-tenant key; refuses anything else (including a sentinel). */
    public static DeadByTenantKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.DEAD_BY_TENANT || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("dead_by_tenant", LENGTH + " bytes starting with 'X'", key);
        }
        try {
            return new DeadByTenantKey(BigEndian.u32(key, 1), BigEndian.u64(key, 5), BigEndian.u64(key, 13),
                    BigEndian.u16(key, 21));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("dead_by_tenant", "ord 1..0xFFFFFFFE and at, seq >= 0", key);
        }
    }

    /** The matching global dead key. */
    public DeadKey deadKey() {
        return new DeadKey(at, seq, sink);
    }

    /** One tenant's dead rows, oldest first. */
    public static KeySpan tenantRange(long ord) {
        byte[] prefix = new byte[5];
        prefix[0] = Prefixes.DEAD_BY_TENANT;
        BigEndian.putU32(prefix, 1, Ordinals.requireTenant(ord));
        return KeySpan.prefix(prefix);
    }
}
