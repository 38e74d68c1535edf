package io.ankusa.keys;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One registered endpoint of a tenant, under the sink number it was given at registration. Keyed
 * by the tenant <em>string</em>, like {@link DedupeKey}: endpoints are registered before a
 * tenant's first hook gives it an ordinal, the ingest writer reads them before it resolves
 * ordinals, and tenant erasure deletes a tenant's endpoints with one prefix range delete
 * ({@link #tenantRange}).
 *
 * <pre>
 * column family  index
 * key            | 'R' | tenant id, UTF-8 (1..255 bytes, no NUL) | 0x00 | sink u16 |
 * value          the endpoint, version 1 (see the queue's registry rows); empty: a removed endpoint,
 *                kept so that its sink number is never allocated again
 * sentinels      lo = 'R' 00, hi = 'R' FF   (a tenant id is never empty and UTF-8 never contains 0xFF)
 * </pre>
 *
 * <p>Added to store format 3 without a new format number, like {@link EndpointKey}: an older
 * release of format 3 never reads an {@code 'R'} key, and opening a format-3 store that lacks the
 * family's sentinels writes them. Only {@code io.ankusa.queue.deliveries} constructs these keys.
 *
 * @param tenant the tenant id
 * @param sink   the endpoint's sink number
 */
public record RegistryKey(String tenant, int sink) {

    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = new KeyFamily("registry", ColumnFamilies.INDEX,
            new byte[] {Prefixes.REGISTRY, 0x00}, new byte[] {Prefixes.REGISTRY, (byte) 0xFF});

    /** Checks the tenant id and the sink. */
    public RegistryKey {
        TenantIds.problem(tenant).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        Ordinals.requireSink(sink);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] prefix = tenantPrefix(tenant);
        byte[] out = Arrays.copyOf(prefix, prefix.length + 2);
        BigEndian.putU16(out, prefix.length, sink);
        return out;
    }

    /** Decodes a registry key; refuses anything else (including a sentinel). */
    public static RegistryKey decode(byte[] key) {
        if (key == null || key.length < 5 || key[0] != Prefixes.REGISTRY || FAMILY.isSentinel(key)
                || key[key.length - 3] != 0) {
            throw new KeyFormatException("registry", "'R', tenant id, 0x00, sink u16", key);
        }
        try {
            return new RegistryKey(new String(key, 1, key.length - 4, StandardCharsets.UTF_8),
                    BigEndian.u16(key, key.length - 2));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("registry", "a valid tenant id", key);
        }
    }

    /** Every registry key of {@code tenant}, in sink order. */
    public static KeySpan tenantRange(String tenant) {
        TenantIds.problem(tenant).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        return KeySpan.prefix(tenantPrefix(tenant));
    }

    private static byte[] tenantPrefix(String tenant) {
        byte[] t = StrictUtf8.encode("tenant id", tenant);
        byte[] prefix = new byte[t.length + 2];
        prefix[0] = Prefixes.REGISTRY;
        System.arraycopy(t, 0, prefix, 1, t.length);
        return prefix;
    }
}
