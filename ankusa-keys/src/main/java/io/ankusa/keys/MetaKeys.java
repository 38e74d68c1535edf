package io.ankusa.keys;

import java.nio.charset.StandardCharsets;

/**
 * Single meta keys in the {@code default} column family, ASCII names under {@code m:}.
 *
 * <pre>
 * key                 value
 * m:format            | format u32 |          the store format stamp (3)
 * m:next_ord          | next u32 |            next tenant ordinal to allocate (1 on a new store)
 * m:last_seq          | seq u64 |             highest seq ever assigned (seq is never reused)
 * m:migrating:&lt;n&gt;     migration cursor      present while the migration to format n runs
 * m:audit_pruned      | seq u64 |             highest audit seq removed by retention (audit seqs are never reused)
 * m:clock             | millis u64 |          the queue clock's last persisted "now" (a restart starts at or after it)
 * m:history_counted   | 1 u32 |               the history_bytes counters cover every attempt history key (written
 *                                           by the open that created the store or counted its history)
 * m:intake:&lt;source&gt;   | offset u64 |          the intake position of the last hook accepted from source
 *                                           (printable ASCII, 1..200 bytes), written in that hook's batch
 * sentinels           lo = "m:" 00, hi = "m:" FF
 * </pre>
 */
public final class MetaKeys {

    /** The format stamp. */
    public static final byte[] FORMAT = ascii("m:format");
    /** The next tenant ordinal. */
    public static final byte[] NEXT_ORD = ascii("m:next_ord");
    /** The highest seq assigned. */
    public static final byte[] LAST_SEQ = ascii("m:last_seq");
    /** The highest audit seq removed by retention pruning. */
    public static final byte[] AUDIT_PRUNED = ascii("m:audit_pruned");
    /** The queue clock's last persisted "now": a restart never starts its clock before it. */
    public static final byte[] CLOCK = ascii("m:clock");
    /**
     * Present once the {@code history_bytes} counters (counter field 8) cover every attempt history
     * key: written with a new store, or by the open that counted an older store's history.
     */
    public static final byte[] HISTORY_COUNTED = ascii("m:history_counted");
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = new KeyFamily("meta", ColumnFamilies.DEFAULT,
            new byte[] {'m', ':', 0x00}, new byte[] {'m', ':', (byte) 0xFF});

    private MetaKeys() {
    }

    /** The cursor key of a running migration to format {@code target}. */
    public static byte[] migrating(int target) {
        if (target < 1) {
            throw new IllegalArgumentException("format must be >= 1: " + target);
        }
        return ascii("m:migrating:" + target);
    }

    /**
     * The key of the intake position of {@code source} (printable ASCII, 1..200 bytes, as
     * {@code io.ankusa.api.IntakePosition} checks it).
     */
    public static byte[] intake(byte[] source) {
        if (source.length < 1 || source.length > 200) {
            throw new IllegalArgumentException("intake source must be 1..200 bytes: " + source.length);
        }
        byte[] prefix = ascii("m:intake:");
        byte[] key = new byte[prefix.length + source.length];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        System.arraycopy(source, 0, key, prefix.length, source.length);
        return key;
    }

    /** Encodes a u32 meta value (format, next ordinal). */
    public static byte[] u32Value(long value) {
        return BigEndian.u32(value);
    }

    /** Decodes a u32 meta value. */
    public static long decodeU32(String name, byte[] value) {
        if (value == null || value.length != 4) {
            throw new KeyFormatException(name, "4 bytes <<value::32>>", value);
        }
        return BigEndian.u32(value, 0);
    }

    /** Encodes a u64 meta value (last seq, clock). */
    public static byte[] u64Value(long value) {
        return BigEndian.u64(value);
    }

    /** Decodes a u64 meta value. */
    public static long decodeU64(String name, byte[] value) {
        if (value == null || value.length != 8 || (value[0] & 0x80) != 0) {
            throw new KeyFormatException(name, "8 bytes <<value::64>> below 2^63", value);
        }
        return BigEndian.u64(value, 0);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
