package io.ankusa.keys;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A half-open key range {@code [from, to)} in unsigned byte order. The queue turns it into the
 * store's range type; this module does not depend on the store.
 *
 * @param from inclusive start
 * @param to   exclusive end
 */
public record KeySpan(byte[] from, byte[] to) {

    /** Checks {@code from <= to}. */
    public KeySpan {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        from = from.clone();
        to = to.clone();
        if (Arrays.compareUnsigned(from, to) > 0) {
            throw new IllegalArgumentException("span start after its end");
        }
    }

    /** Every key that starts with {@code prefix} (the prefix must not be all 0xFF). */
    public static KeySpan prefix(byte[] prefix) {
        byte[] end = prefix.clone();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return new KeySpan(prefix, Arrays.copyOf(end, i + 1));
            }
        }
        throw new IllegalArgumentException("a prefix of only 0xFF bytes has no end");
    }

    /** The start (a copy). */
    @Override
    public byte[] from() {
        return from.clone();
    }

    /** The end (a copy). */
    @Override
    public byte[] to() {
        return to.clone();
    }

    /** Whether {@code key} lies in the span. */
    public boolean contains(byte[] key) {
        return Arrays.compareUnsigned(key, from) >= 0 && Arrays.compareUnsigned(key, to) < 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeySpan s && Arrays.equals(from, s.from) && Arrays.equals(to, s.to);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(from) + Arrays.hashCode(to);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "[" + hex.formatHex(from) + ", " + hex.formatHex(to) + ")";
    }
}
