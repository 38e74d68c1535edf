package io.ankusa.keys.v2;

import io.ankusa.keys.BigEndian;
import io.ankusa.keys.KeyFormatException;

/**
 * The format-2 value of an archive obligation {@code <<'a', seq::64>>} (same key in format 3,
 * which appends the ordinal to the value).
 *
 * <pre>
 * value   | size u32 |
 * </pre>
 */
public final class ArchiveValueV2 {

    private ArchiveValueV2() {
    }

    /** Encodes. */
    public static byte[] encode(long size) {
        return BigEndian.u32(size);
    }

    /** Decodes the size. */
    public static long decode(byte[] value) {
        if (value == null || value.length != 4) {
            throw new KeyFormatException("archive_v2 value", "4 bytes <<size::32>>", value);
        }
        return BigEndian.u32(value, 0);
    }
}
