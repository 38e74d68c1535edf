package io.ankusa.keys;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Ordinal by tenant id.
 *
 * <pre>
 * column family  tenants
 * key            | 'n' | tenant id, UTF-8 (1..255 bytes, no NUL) |
 * value          | ord u32 |
 * sentinels      lo = 'n' 00, hi = 'n' FF   (no tenant id contains NUL; UTF-8 never contains 0xFF)
 * </pre>
 *
 * @param tenant the tenant id
 */
public record OrdByTenantKey(String tenant) {

    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = new KeyFamily("tenant_ords", ColumnFamilies.TENANTS,
            new byte[] {Prefixes.ORD_BY_TENANT, 0x00}, new byte[] {Prefixes.ORD_BY_TENANT, (byte) 0xFF});

    /** Checks the tenant id. */
    public OrdByTenantKey {
        TenantIds.problem(tenant).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] id = StrictUtf8.encode("tenant id", tenant);
        byte[] out = new byte[1 + id.length];
        out[0] = Prefixes.ORD_BY_TENANT;
        System.arraycopy(id, 0, out, 1, id.length);
        return out;
    }

    /**
     * Every key of a tenant id that starts with {@code prefix}, in tenant-id order; for the empty prefix,
     * every key between the sentinels.
     *
     * @param prefix the start of the tenant ids (no NUL, valid UTF-16); empty for every tenant id
     * @return the span of their keys, sentinels excluded
     */
    public static KeySpan startingWith(String prefix) {
        if (prefix.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("no tenant id contains NUL");
        }
        if (prefix.isEmpty()) {
            // No tenant id starts with NUL: every real key is at or after 'n' 01.
            return new KeySpan(new byte[] {Prefixes.ORD_BY_TENANT, 0x01}, FAMILY.hi());
        }
        byte[] id = StrictUtf8.encode("tenant id prefix", prefix);
        byte[] start = new byte[1 + id.length];
        start[0] = Prefixes.ORD_BY_TENANT;
        System.arraycopy(id, 0, start, 1, id.length);
        return KeySpan.prefix(start);
    }

    /**
     * The first key that sorts after this one: where a listing continues after this tenant.
     *
     * @return this key followed by a 0 byte
     */
    public byte[] successor() {
        byte[] key = encode();
        return Arrays.copyOf(key, key.length + 1);
    }

    /** Decodes; refuses anything else (including a sentinel). */
    public static OrdByTenantKey decode(byte[] key) {
        if (key == null || key.length < 2 || key[0] != Prefixes.ORD_BY_TENANT || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("tenant_ords", "'n' followed by a tenant id", key);
        }
        try {
            return new OrdByTenantKey(new String(Arrays.copyOfRange(key, 1, key.length), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("tenant_ords", "'n' followed by a valid tenant id", key);
        }
    }

    /** The value: the ordinal. */
    public static byte[] value(long ord) {
        return BigEndian.u32(Ordinals.requireTenant(ord));
    }

    /** The ordinal of a value. */
    public static long decodeValue(byte[] value) {
        if (value == null || value.length != 4) {
            throw new KeyFormatException("tenant_ords value", "4 bytes <<ord::32>>", value);
        }
        long ord = BigEndian.u32(value, 0);
        if (ord < Ordinals.FIRST || ord > Ordinals.MAX) {
            throw new KeyFormatException("tenant_ords value", "ord 1..0xFFFFFFFE", value);
        }
        return ord;
    }
}
