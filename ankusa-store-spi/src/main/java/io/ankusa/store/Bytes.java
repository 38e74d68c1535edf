package io.ankusa.store;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/** Unsigned byte-string helpers shared by the store contract and its callers. */
public final class Bytes {

    private static final HexFormat HEX = HexFormat.of();

    private Bytes() {
    }

    /**
     * Compares as unsigned bytes, shorter prefix first: the order every store sorts keys in.
     *
     * @param a one key
     * @param b the other key
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /**
     * The smallest key greater than every key that starts with {@code prefix}, or empty when
     * the prefix is all {@code 0xFF} bytes (then no such key exists).
     *
     * @param prefix the prefix
     * @return the exclusive end of the prefix's range, if there is one
     */
    public static Optional<byte[]> prefixEnd(byte[] prefix) {
        byte[] end = prefix.clone();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return Optional.of(Arrays.copyOf(end, i + 1));
            }
        }
        return Optional.empty();
    }

    /**
     * Lower-case hex, for messages.
     *
     * @param bytes the bytes
     * @return two hex digits per byte
     */
    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }
}
