package io.ankusa.keys;

/**
 * An active-tenant marker: tenant {@code ord} has (or recently had) a due row in second
 * {@code bucket}. Invariant: every due row has the marker of its (ord, at / 1000).
 *
 * <pre>
 * column family  index
 * key            | 'A' | bucket u64 (= at / 1000) | ord u32 |   13 bytes
 * value          empty
 * sentinels      lo = 'A' + 12 x 0x00, hi = 'A' + 12 x 0xFF
 * </pre>
 *
 * <p>Only {@code io.ankusa.queue.deliveries} constructs these keys (checked by an architecture rule).
 *
 * @param bucket the second, {@code at / 1000}
 * @param ord    tenant ordinal
 */
public record ActiveKey(long bucket, long ord) {

    /** Encoded key length. */
    public static final int LENGTH = 13;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = KeyFamily.fixed("active", ColumnFamilies.INDEX, new byte[] {Prefixes.ACTIVE}, LENGTH - 1);

    /** Checks the ranges. */
    public ActiveKey {
        Ordinals.requireNonNegative("bucket", bucket);
        Ordinals.requireTenant(ord);
    }

    /** The marker of a due row for {@code ord} at {@code at}. */
    public static ActiveKey forDue(long ord, long at) {
        return new ActiveKey(bucketOf(at), ord);
    }

    /** The second that holds {@code at}. */
    public static long bucketOf(long at) {
        Ordinals.requireNonNegative("at", at);
        return at / 1000;
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.ACTIVE;
        BigEndian.putU64(out, 1, bucket);
        BigEndian.putU32(out, 9, ord);
        return out;
    }

    /** Decodes a marker; refuses anything else (including a sentinel). */
    public static ActiveKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.ACTIVE || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("active", LENGTH + " bytes starting with 'A'", key);
        }
        try {
            return new ActiveKey(BigEndian.u64(key, 1), BigEndian.u32(key, 9));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("active", "bucket >= 0 and ord 1..0xFFFFFFFE", key);
        }
    }

    /** Every marker with {@code bucket <= lastBucket}, oldest first, excluding the lo sentinel. */
    public static KeySpan upTo(long lastBucket) {
        Ordinals.requireNonNegative("lastBucket", lastBucket);
        byte[] to = new byte[9];
        to[0] = Prefixes.ACTIVE;
        BigEndian.putU64(to, 1, lastBucket + 1);
        return new KeySpan(FAMILY.between().from(), to);
    }
}
