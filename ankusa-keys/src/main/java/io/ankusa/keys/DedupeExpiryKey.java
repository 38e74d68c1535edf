package io.ankusa.keys;

/**
 * The expiry companion of a {@link DedupeKey}: the sweep reads these oldest first, so it finds
 * expired dedupe entries without scanning live ones.
 *
 * <pre>
 * column family  index
 * key            | 'e' | at u64 (expires_at, epoch ms) | tenant id, UTF-8 | 0x00 | idempotency key, UTF-8 |
 * value          empty
 * sentinels      lo = 'e' + 8 x 0x00, hi = 'e' + 8 x 0xFF   (at stays below 2^63)
 * </pre>
 *
 * @param at     when the dedupe entry expires, epoch milliseconds
 * @param tenant the tenant id
 * @param key    the idempotency key
 */
public record DedupeExpiryKey(long at, String tenant, String key) {

    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = KeyFamily.fixed("dedupe_expiry", ColumnFamilies.INDEX,
            new byte[] {Prefixes.DEDUPE_EXPIRY}, 8);

    /** Checks the fields. */
    public DedupeExpiryKey {
        Ordinals.requireNonNegative("at", at);
        new DedupeKey(tenant, key);
    }

    /** The companion of {@code entry}, expiring at {@code at}. */
    public static DedupeExpiryKey of(long at, DedupeKey entry) {
        return new DedupeExpiryKey(at, entry.tenant(), entry.key());
    }

    /** The dedupe entry this key expires. */
    public DedupeKey dedupeKey() {
        return new DedupeKey(tenant, key);
    }

    /** The key bytes. */
    public byte[] encode() {
        return DedupeKey.encode(Prefixes.DEDUPE_EXPIRY, BigEndian.u64(at), tenant, key);
    }

    /** Decodes; refuses anything else (including a sentinel). */
    public static DedupeExpiryKey decode(byte[] key) {
        if (key == null || key.length < 12 || key[0] != Prefixes.DEDUPE_EXPIRY || (key[1] & 0x80) != 0
                || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("dedupe_expiry", "'e', at, tenant id, 0x00, idempotency key", key);
        }
        return of(BigEndian.u64(key, 1), DedupeKey.decodeBody("dedupe_expiry", key, 9));
    }

    /** Every expiry key with {@code at <= now}, oldest first. */
    public static KeySpan expiredBy(long now) {
        Ordinals.requireNonNegative("now", now);
        byte[] end = new byte[9];
        end[0] = Prefixes.DEDUPE_EXPIRY;
        BigEndian.putU64(end, 1, now + 1);
        return new KeySpan(FAMILY.between().from(), end);
    }
}
