package io.ankusa.keys;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A dedupe entry: tenant {@code tenant} already accepted a hook with idempotency key {@code key}.
 * Keyed by the tenant <em>string</em>, not its ordinal, because the ingest writer checks it before
 * it resolves ordinals, and tenant erasure deletes a tenant's entries with one prefix range delete
 * ({@link #tenantRange}).
 *
 * <pre>
 * column family  index
 * key            | 'u' | tenant id, UTF-8 (1..255 bytes, no NUL) | 0x00 | idempotency key, UTF-8 (1..255 bytes) |
 * value          | seq u64 | expires_at u64 (epoch ms) | id_len u32 | hook id utf8 |
 * sentinels      lo = 'u' 00, hi = 'u' FF   (a tenant id is never empty and UTF-8 never contains 0xFF)
 * </pre>
 *
 * <p>The value is the original receipt (seq and hook id; the tenant is in the key) and when the
 * entry stops deduplicating. Each entry has an expiry companion {@link DedupeExpiryKey} at
 * {@code expires_at}.
 *
 * @param tenant the tenant id
 * @param key    the idempotency key
 */
public record DedupeKey(String tenant, String key) {

    /** Longest idempotency key in UTF-8 bytes. */
    public static final int KEY_MAX_BYTES = 255;

    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = new KeyFamily("dedupe", ColumnFamilies.INDEX,
            new byte[] {Prefixes.DEDUPE, 0x00}, new byte[] {Prefixes.DEDUPE, (byte) 0xFF});

    /** Checks the tenant id and the key. */
    public DedupeKey {
        TenantIds.problem(tenant).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        int length = StrictUtf8.encode("idempotency key", key).length;
        if (length < 1 || length > KEY_MAX_BYTES) {
            throw new IllegalArgumentException("idempotency key must be 1.." + KEY_MAX_BYTES + " UTF-8 bytes: "
                    + length);
        }
    }

    /** The key bytes. */
    public byte[] encode() {
        return encode(Prefixes.DEDUPE, new byte[0], tenant, key);
    }

    static byte[] encode(byte prefix, byte[] between, String tenant, String key) {
        byte[] t = StrictUtf8.encode("tenant id", tenant);
        byte[] k = StrictUtf8.encode("idempotency key", key);
        byte[] out = new byte[1 + between.length + t.length + 1 + k.length];
        out[0] = prefix;
        System.arraycopy(between, 0, out, 1, between.length);
        System.arraycopy(t, 0, out, 1 + between.length, t.length);
        System.arraycopy(k, 0, out, 2 + between.length + t.length, k.length);
        return out;
    }

    /** Decodes; refuses anything else (including a sentinel). */
    public static DedupeKey decode(byte[] key) {
        if (key == null || key.length < 4 || key[0] != Prefixes.DEDUPE || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("dedupe", "'u', tenant id, 0x00, idempotency key", key);
        }
        return decodeBody("dedupe", key, 1);
    }

    static DedupeKey decodeBody(String family, byte[] key, int from) {
        int nul = -1;
        for (int i = from; i < key.length; i++) {
            if (key[i] == 0) {
                nul = i;
                break;
            }
        }
        if (nul < 0) {
            throw new KeyFormatException(family, "a tenant id ended by 0x00", key);
        }
        try {
            return new DedupeKey(new String(Arrays.copyOfRange(key, from, nul), StandardCharsets.UTF_8),
                    new String(Arrays.copyOfRange(key, nul + 1, key.length), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException(family, "a valid tenant id and idempotency key", key);
        }
    }

    /** Every dedupe entry of {@code tenant} (for tenant erasure). */
    public static KeySpan tenantRange(String tenant) {
        TenantIds.problem(tenant).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        byte[] t = StrictUtf8.encode("tenant id", tenant);
        byte[] prefix = new byte[t.length + 2];
        prefix[0] = Prefixes.DEDUPE;
        System.arraycopy(t, 0, prefix, 1, t.length);
        return KeySpan.prefix(prefix);
    }

    /** The value: the original hook's seq and id, and when the entry expires. */
    public static byte[] value(long seq, long expiresAt, String hookId) {
        Ordinals.requireNonNegative("seq", seq);
        Ordinals.requireNonNegative("expiresAt", expiresAt);
        byte[] id = StrictUtf8.encode("hook id", hookId);
        byte[] out = new byte[20 + id.length];
        BigEndian.putU64(out, 0, seq);
        BigEndian.putU64(out, 8, expiresAt);
        BigEndian.putU32(out, 16, id.length);
        System.arraycopy(id, 0, out, 20, id.length);
        return out;
    }

    /** Decodes the value. */
    public static Value decodeValue(byte[] value) {
        String expected = "<<seq::64, expires_at::64, id_len::32, id>>";
        if (value == null || value.length < 20 || BigEndian.u32(value, 16) != value.length - 20L
                || (value[0] & 0x80) != 0 || (value[8] & 0x80) != 0) {
            throw new KeyFormatException("dedupe value", expected, value);
        }
        return new Value(BigEndian.u64(value, 0), BigEndian.u64(value, 8),
                new String(value, 20, value.length - 20, StandardCharsets.UTF_8));
    }

    /**
     * A decoded dedupe value: the original receipt and the end of the window.
     *
     * @param seq       the original hook's seq
     * @param expiresAt when the entry stops deduplicating, epoch milliseconds
     * @param hookId    the original hook's id
     */
    public record Value(long seq, long expiresAt, String hookId) {
    }
}
