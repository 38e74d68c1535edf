package io.ankusa.store.spi;

import io.ankusa.store.StoreCorruptionException;

/**
 * The on-disk form of a counter value: 8 bytes, little-endian two's complement — the format of
 * RocksDB's {@code UInt64AddOperator}, used by every backend so that a counter row means the same
 * everywhere.
 */
public final class CounterCodec {

    /** Encoded length. */
    public static final int LENGTH = 8;

    private CounterCodec() {
    }

    /**
     * Encodes {@code value}.
     *
     * @param value the value
     * @return its {@value #LENGTH} bytes, little-endian
     */
    public static byte[] encode(long value) {
        byte[] out = new byte[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            out[i] = (byte) (value >>> (8 * i));
        }
        return out;
    }

    /**
     * Decodes a stored counter; anything but 8 bytes is corruption.
     *
     * @param bytes a stored counter
     * @return its value
     */
    public static long decode(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new StoreCorruptionException("counter value of " + bytes.length + " bytes, expected 8");
        }
        long v = 0;
        for (int i = LENGTH - 1; i >= 0; i--) {
            v = (v << 8) | (bytes[i] & 0xFF);
        }
        return v;
    }
}
