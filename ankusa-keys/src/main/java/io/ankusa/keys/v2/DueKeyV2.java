package io.ankusa.keys.v2;

import io.ankusa.keys.BigEndian;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.KeyFamily;
import io.ankusa.keys.KeyFormatException;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.Prefixes;
import java.util.Arrays;

/**
 * A format-2 due row (global time order, no tenant). Read and deleted only by the 2 → 3 migration.
 *
 * <pre>
 * column family  index
 * key            | 'd' | at u64 | seq u64 | sink u16 |   19 bytes
 * value          | size u32 |
 * sentinels      lo = 'd' + 18 x 0x00, hi = 'd' + 18 x 0xFF   (family "due_v2")
 * </pre>
 *
 * @param at   due time, epoch milliseconds
 * @param seq  the hook's seq
 * @param sink sink number
 */
public record DueKeyV2(long at, long seq, int sink) {

    /** Encoded key length. */
    public static final int LENGTH = 19;
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = fixed("due_v2", Prefixes.DUE_V2, LENGTH - 1);

    /** Checks the ranges. */
    public DueKeyV2 {
        if (at < 0 || seq < 0 || sink < 0 || sink > BigEndian.U16_MAX) {
            throw new IllegalArgumentException("at, seq >= 0 and sink 0..65535 required");
        }
    }

    /** The key bytes. */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        out[0] = Prefixes.DUE_V2;
        BigEndian.putU64(out, 1, at);
        BigEndian.putU64(out, 9, seq);
        BigEndian.putU16(out, 17, sink);
        return out;
    }

    /** Decodes; refuses anything else (including a sentinel). */
    public static DueKeyV2 decode(byte[] key) {
        if (key == null || key.length != LENGTH || key[0] != Prefixes.DUE_V2 || FAMILY.isSentinel(key)
                || (key[1] & 0x80) != 0 || (key[9] & 0x80) != 0) {
            throw new KeyFormatException("due_v2", LENGTH + " bytes starting with 'd'", key);
        }
        return new DueKeyV2(BigEndian.u64(key, 1), BigEndian.u64(key, 9), BigEndian.u16(key, 17));
    }

    /** Every key with prefix {@code 'd'}, sentinels included: what the migration's finish step range-deletes. */
    public static KeySpan wholeFamily() {
        return KeySpan.prefix(new byte[] {Prefixes.DUE_V2});
    }

    /** The value: envelope size. */
    public static byte[] value(long size) {
        return BigEndian.u32(size);
    }

    /** Decodes the value. */
    public static long decodeValue(byte[] value) {
        if (value == null || value.length != 4) {
            throw new KeyFormatException("due_v2 value", "4 bytes <<size::32>>", value);
        }
        return BigEndian.u32(value, 0);
    }

    static KeyFamily fixed(String name, byte prefix, int body) {
        byte[] lo = new byte[1 + body];
        lo[0] = prefix;
        byte[] hi = lo.clone();
        Arrays.fill(hi, 1, hi.length, (byte) 0xFF);
        return new KeyFamily(name, ColumnFamilies.INDEX, lo, hi);
    }
}
