package io.ankusa.keys;

import java.nio.charset.StandardCharsets;

/**
 * Tenant id by ordinal. Ordinals are never reused; an erased tenant keeps this row with an empty
 * value (a tombstone).
 *
 * <pre>
 * column family  tenants
 * key            | 't' | ord u32 |          5 bytes
 * value          tenant id, UTF-8 (empty = erased)
 * sentinels      lo = 't' 00 00 00 00, hi = 't' FF FF FF FF
 * </pre>
 *
 * @param ord tenant ordinal
 */
public record TenantByOrdKey(long ord) {

    /** Encoded key length. */
    public static final int LENGTH = 5;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY =
            KeyFamily.fixed("tenants", ColumnFamilies.TENANTS, new byte[] {Prefixes.TENANT_BY_ORD}, 4);

    /** Checks the range. */
    public TenantByOrdKey {
        Ordinals.requireTenant(ord);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.TENANT_BY_ORD;
        BigEndian.putU32(out, 1, ord);
        return out;
    }

    /** Decodes; refuses anything else (including a sentinel). */
    public static TenantByOrdKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.TENANT_BY_ORD || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("tenants", LENGTH + " bytes starting with 't'", key);
        }
        return new TenantByOrdKey(BigEndian.u32(key, 1));
    }

    /** The value: the tenant id. */
    public static byte[] value(String tenant) {
        return StrictUtf8.encode("tenant id", tenant);
    }

    /** The tenant id of a value (empty string for an erased tenant). */
    public static String decodeValue(byte[] value) {
        return new String(value, StandardCharsets.UTF_8);
    }
}
