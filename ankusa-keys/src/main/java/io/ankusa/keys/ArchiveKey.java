package io.ankusa.keys;

/**
 * An archive obligation: hook {@code seq} must still be archived. Written by ingest when the
 * archive is on; removed when the compactor settles or drops it. The value carries the owner's
 * ordinal so settling needs no hook read.
 *
 * <pre>
 * column family  index
 * key            | 'a' | seq u64 |              9 bytes
 * value          | size u32 | ord u32 |         8 bytes
 * sentinels      lo = 'a' + 8 x 0x00, hi = 'a' + 8 x 0xFF
 * </pre>
 *
 * @param seq the hook's seq
 */
public record ArchiveKey(long seq) {

    /** Encoded key length. */
    public static final int LENGTH = 9;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY =
            KeyFamily.fixed("archive", ColumnFamilies.INDEX, new byte[] {Prefixes.ARCHIVE}, LENGTH - 1);

    /** Checks the range. */
    public ArchiveKey {
        Ordinals.requireNonNegative("seq", seq);
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.ARCHIVE;
        BigEndian.putU64(out, 1, seq);
        return out;
    }

    /** Decodes an archive key; refuses anything else (including a sentinel). */
    public static ArchiveKey decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.ARCHIVE || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("archive", LENGTH + " bytes starting with 'a'", key);
        }
        long seq = BigEndian.u64(key, 1);
        if (seq < 0) {
            throw new KeyFormatException("archive", "seq >= 0", key);
        }
        return new ArchiveKey(seq);
    }

    /** The value: envelope size and owner ordinal. */
    public static byte[] value(long size, long ord) {
        byte[] out = new byte[8];
        BigEndian.putU32(out, 0, size);
        BigEndian.putU32(out, 4, Ordinals.requireTenant(ord));
        return out;
    }

    /** Decodes the value. */
    public static Value decodeValue(byte[] value) {
        if (value == null || value.length != 8) {
            throw new KeyFormatException("archive value", "8 bytes <<size::32, ord::32>>", value);
        }
        long ord = BigEndian.u32(value, 4);
        if (ord < Ordinals.FIRST || ord > Ordinals.MAX) {
            throw new KeyFormatException("archive value", "ord 1..0xFFFFFFFE", value);
        }
        return new Value(BigEndian.u32(value, 0), ord);
    }

    /**
     * A decoded archive value.
     *
     * @param size envelope size
     * @param ord  owner ordinal
     */
    public record Value(long size, long ord) {
    }
}
