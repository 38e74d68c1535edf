package io.ankusa.keys;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * One ordered delivery waiting its turn: per (tenant, sink, ordering group) the deliveries not yet
 * delivered or dead-lettered, in ingest order. The first key of a {@link #groupRange group} is its
 * head, the only row of the group that may be claimed.
 *
 * <pre>
 * column family  ordering
 * key            | 'O' | ord u32 | sink u16 | group u64 | seq u64 |   23 bytes
 * value          empty
 * sentinels      lo = 'O' + 22 x 0x00, hi = 'O' + 22 x 0xFF
 * group          {@link #group(String)}: the first 8 bytes of SHA-256 of the ordering key's UTF-8, never 0
 * </pre>
 *
 * <p>A key is written in the batch that writes its delivery's first due row (ingest) and deleted
 * in the batch that removes the delivery from due or inflight for good (delivered, dead-lettered,
 * dropped as an orphan, purged, erased); a retry and boot recovery keep it. Two ordering keys
 * whose groups collide share one FIFO: they are delivered in one order, never out of order.
 *
 * <p>The family lives in a column family of its own, so a release that does not know it refuses
 * the store when it opens it (a store remembers its families) rather than delivering ordered rows
 * out of order. Only {@code io.ankusa.queue.deliveries} constructs these keys.
 *
 * @param ord   tenant ordinal
 * @param sink  sink number
 * @param group the ordering group, not 0
 * @param seq   the hook's seq
 */
public record OrderKey(long ord, int sink, long group, long seq) {

    /** Encoded key length. */
    public static final int LENGTH = 23;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY =
            KeyFamily.fixed("ordering", ColumnFamilies.ORDERING, new byte[] {Prefixes.ORDER}, LENGTH - 1);

    /** Checks the ranges. */
    public OrderKey {
        Ordinals.requireTenant(ord);
        Ordinals.requireSink(sink);
        if (group == DueKey.UNORDERED) {
            throw new IllegalArgumentException("ordering group 0 is no group");
        }
        Ordinals.requireNonNegative("seq", seq);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.ORDER;
        BigEndian.putU32(out, 1, ord);
        BigEndian.putU16(out, 5, sink);
        BigEndian.putU64(out, 7, group);
        BigEndian.putU64(out, 15, seq);
        return out;
    }

    /** Decodes an ordering key; refuses anything else (including a sentinel). */
    public static OrderKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.ORDER || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("ordering", LENGTH + " bytes starting with 'O'", key);
        }
        try {
            return new OrderKey(BigEndian.u32(key, 1), BigEndian.u16(key, 5), BigEndian.u64(key, 7),
                    BigEndian.u64(key, 15));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("ordering", "ord 1..0xFFFFFFFE, group not 0 and seq >= 0", key);
        }
    }

    /** The deliveries of one (tenant, sink, group), head first. */
    public static KeySpan groupRange(long ord, int sink, long group) {
        Ordinals.requireSink(sink);
        byte[] prefix = new byte[15];
        prefix[0] = Prefixes.ORDER;
        BigEndian.putU32(prefix, 1, Ordinals.requireTenant(ord));
        BigEndian.putU16(prefix, 5, sink);
        BigEndian.putU64(prefix, 7, group);
        return KeySpan.prefix(prefix);
    }

    /** Every ordered delivery of one tenant, by sink and group. */
    public static KeySpan tenantRange(long ord) {
        byte[] prefix = new byte[5];
        prefix[0] = Prefixes.ORDER;
        BigEndian.putU32(prefix, 1, Ordinals.requireTenant(ord));
        return KeySpan.prefix(prefix);
    }

    /**
     * The ordering group of an application's ordering key: the first 8 bytes of the SHA-256 of its
     * UTF-8, big-endian, with 0 (no group) read as 1.
     */
    public static long group(String orderingKey) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(orderingKey.getBytes(StandardCharsets.UTF_8));
            long group = BigEndian.u64(digest, 0);
            return group == DueKey.UNORDERED ? 1 : group;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
