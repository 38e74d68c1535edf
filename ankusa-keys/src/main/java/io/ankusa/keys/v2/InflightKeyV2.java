package io.ankusa.keys.v2;

import io.ankusa.keys.BigEndian;
import io.ankusa.keys.KeyFamily;
import io.ankusa.keys.KeyFormatException;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.Prefixes;

/**
 * A format-2 inflight row (no tenant). Read and deleted only by the 2 → 3 migration.
 *
 * <pre>
 * column family  index
 * key            | 'f' | seq u64 | sink u16 |   11 bytes
 * value          | size u32 |
 * sentinels      lo = 'f' + 10 x 0x00, hi = 'f' + 10 x 0xFF   (family "inflight_v2")
 * </pre>
 *
 * @param seq  the hook's seq
 * @param sink sink number
 */
public record InflightKeyV2(long seq, int sink) {

    /** Encoded key length. */
    public static final int LENGTH = 11;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = DueKeyV2.fixed("inflight_v2", Prefixes.INFLIGHT_V2, LENGTH - 1);

    /** Checks the ranges. */
    public InflightKeyV2 {
        if (seq < 0 || sink < 0 || sink > BigEndian.U16_MAX) {
            throw new IllegalArgumentException("seq >= 0 and sink 0..65535 required");
        }
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.INFLIGHT_V2;
        BigEndian.putU64(out, 1, seq);
        BigEndian.putU16(out, 9, sink);
        return out;
    }

    /** Decodes; refuses anything else (including a sentinel). */
    public static InflightKeyV2 decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.INFLIGHT_V2 || FAMILY.isSentinel(key)
                || (key[1] & 0x80) != 0) {
            throw new KeyFormatException("inflight_v2", LENGTH + " bytes starting with 'f'", key);
        }
        return new InflightKeyV2(BigEndian.u64(key, 1), BigEndian.u16(key, 9));
    }

    /** Every key with prefix {@code 'f'}, sentinels included. */
    public static KeySpan wholeFamily() {
        return KeySpan.prefix(new byte[] {Prefixes.INFLIGHT_V2});
    }

    /** The value: envelope size. */
    public static byte[] value(long size) {
        return BigEndian.u32(size);
    }

    /** Decodes the value. */
    public static long decodeValue(byte[] value) {
        if (value == null || value.length != 4) {
            throw new KeyFormatException("inflight_v2 value", "4 bytes <<size::32>>", value);
        }
        return BigEndian.u32(value, 0);
    }
}
