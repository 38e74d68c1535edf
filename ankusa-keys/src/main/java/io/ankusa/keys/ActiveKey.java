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
    public static final KeyFamily FAMILY =
            KeyFamily.fixed("active", ColumnFamilies.INDEX, new byte[] {Prefixes.ACTIVE}, LENGTH - 1);

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

    /**
     * The markers after {@code (bucket, ord)} (exclusive) up to {@code lastBucket} (inclusive):
     * a cursor's next page. {@code ord} 0 (no tenant) starts at the first marker of {@code bucket}.
     */
    public static KeySpan after(long bucket, long ord, long lastBucket) {
        Ordinals.requireNonNegative("bucket", bucket);
        KeySpan upTo = upTo(lastBucket);
        byte[] from = new byte[LENGTH + 1];
        from[0] = Prefixes.ACTIVE;
        BigEndian.putU64(from, 1, bucket);
        BigEndian.putU32(from, 9, ord);
        if (ord == 0) {
            from = java.util.Arrays.copyOf(from, 9);
        }
        byte[] first = FAMILY.between().from();
        if (java.util.Arrays.compareUnsigned(from, first) < 0) {
            from = first; // never the family's sentinel
        }
        if (java.util.Arrays.compareUnsigned(from, upTo.to()) > 0) {
            return new KeySpan(upTo.to(), upTo.to());
        }
        return new KeySpan(from, upTo.to());
    }
}
