package io.ankusa.keys;

/**
 * Unsigned big-endian integers in byte arrays: the encoding of every integer in a key, so that
 * unsigned byte order equals numeric order.
 */
public final class BigEndian {

    /** Largest u32. */
    public static final long U32_MAX = 0xFFFF_FFFFL;

    /** Largest u16. */
    public static final int U16_MAX = 0xFFFF;

    private BigEndian() {
    }

    /** Writes {@code value} (0..65535) as 2 bytes at {@code offset}. */
    public static void putU16(byte[] out, int offset, int value) {
        if (value < 0 || value > U16_MAX) {
            throw new IllegalArgumentException("u16 out of range: " + value);
        }
        out[offset] = (byte) (value >>> 8);
        out[offset + 1] = (byte) value;
    }

    /** Writes {@code value} (0..2^32-1) as 4 bytes at {@code offset}. */
    public static void putU32(byte[] out, int offset, long value) {
        if (value < 0 || value > U32_MAX) {
            throw new IllegalArgumentException("u32 out of range: " + value);
        }
        for (int i = 3; i >= 0; i--) {
            out[offset + i] = (byte) value;
            value >>>= 8;
        }
    }

    /** Writes {@code value} as 8 bytes at {@code offset} (two's complement bits, so unsigned for values >= 0). */
    public static void putU64(byte[] out, int offset, long value) {
        for (int i = 7; i >= 0; i--) {
            out[offset + i] = (byte) value;
            value >>>= 8;
        }
    }

    /** Reads 2 bytes at {@code offset} as an unsigned value. */
    public static int u16(byte[] in, int offset) {
        return ((in[offset] & 0xFF) << 8) | (in[offset + 1] & 0xFF);
    }

    /** Reads 4 bytes at {@code offset} as an unsigned value. */
    public static long u32(byte[] in, int offset) {
        long v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (in[offset + i] & 0xFF);
        }
        return v;
    }

    /** Reads 8 bytes at {@code offset}. */
    public static long u64(byte[] in, int offset) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (in[offset + i] & 0xFF);
        }
        return v;
    }

    /** A 4-byte array holding {@code value}. */
    public static byte[] u32(long value) {
        byte[] out = new byte[4];
        putU32(out, 0, value);
        return out;
    }

    /** An 8-byte array holding {@code value}. */
    public static byte[] u64(long value) {
        byte[] out = new byte[8];
        putU64(out, 0, value);
        return out;
    }
}
