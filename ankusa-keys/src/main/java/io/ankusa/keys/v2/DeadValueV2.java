package io.ankusa.keys.v2;

import io.ankusa.keys.BigEndian;
import io.ankusa.keys.KeyFormatException;
import java.nio.charset.StandardCharsets;

/**
 * The format-2 value of a dead key {@code <<'x', at::64, seq::64, sink::16>>} (the key is the
 * same in format 3; format 3 adds the ordinal in front of the value).
 *
 * <pre>
 * value   | source_len u32 | source_id utf8 | id_len u32 | hook id utf8 |
 * </pre>
 *
 * @param sourceId the hook's source id
 * @param hookId   the hook's id
 */
public record DeadValueV2(String sourceId, String hookId) {

    /** Encodes. */
    public byte[] encode() {
        byte[] source = sourceId.getBytes(StandardCharsets.UTF_8);
        byte[] id = hookId.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[8 + source.length + id.length];
        BigEndian.putU32(out, 0, source.length);
        System.arraycopy(source, 0, out, 4, source.length);
        BigEndian.putU32(out, 4 + source.length, id.length);
        System.arraycopy(id, 0, out, 8 + source.length, id.length);
        return out;
    }

    /** Decodes. */
    public static DeadValueV2 decode(byte[] value) {
        String expected = "<<source_len::32, source, id_len::32, id>>";
        if (value == null || value.length < 8) {
            throw new KeyFormatException("dead_v2 value", expected, value);
        }
        long sourceLength = BigEndian.u32(value, 0);
        if (sourceLength > value.length - 8) {
            throw new KeyFormatException("dead_v2 value", expected, value);
        }
        int s = (int) sourceLength;
        long idLength = BigEndian.u32(value, 4 + s);
        if (idLength != value.length - 8L - s) {
            throw new KeyFormatException("dead_v2 value", expected, value);
        }
        return new DeadValueV2(new String(value, 4, s, StandardCharsets.UTF_8),
                new String(value, 8 + s, (int) idLength, StandardCharsets.UTF_8));
    }
}
