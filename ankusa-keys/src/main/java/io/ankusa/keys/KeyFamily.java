package io.ankusa.keys;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A family of keys inside a column family, bounded by its lo and hi sentinel keys. Every real key
 * of the family sorts strictly between the two sentinels, so a whole-family fold that does not
 * end on the hi sentinel has met a scan that ended early (corruption reported as a clean end).
 *
 * @param name         family name, as in the spec's family table ({@code due}, {@code counters}, …)
 * @param columnFamily the column family that holds it
 * @param lo           the lo sentinel key
 * @param hi           the hi sentinel key
 */
public record KeyFamily(String name, String columnFamily, byte[] lo, byte[] hi) {

    /** Checks the sentinels are ordered. */
    public KeyFamily {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(columnFamily, "columnFamily");
        lo = lo.clone();
        hi = hi.clone();
        if (Arrays.compareUnsigned(lo, hi) >= 0) {
            throw new IllegalArgumentException(name + ": lo sentinel must sort before hi");
        }
    }

    /** A family whose keys are {@code prefix} followed by {@code bodyLength} bytes: lo is all 0, hi all 0xFF. */
    static KeyFamily fixed(String name, String columnFamily, byte[] prefix, int bodyLength) {
        byte[] lo = Arrays.copyOf(prefix, prefix.length + bodyLength);
        byte[] hi = Arrays.copyOf(prefix, prefix.length + bodyLength);
        Arrays.fill(hi, prefix.length, hi.length, (byte) 0xFF);
        return new KeyFamily(name, columnFamily, lo, hi);
    }

    /** The lo sentinel (a copy). */
    @Override
    public byte[] lo() {
        return lo.clone();
    }

    /** The hi sentinel (a copy). */
    @Override
    public byte[] hi() {
        return hi.clone();
    }

    /** Whether {@code key} is one of the two sentinels. */
    public boolean isSentinel(byte[] key) {
        return Arrays.equals(key, lo) || Arrays.equals(key, hi);
    }

    /** The range {@code [lo, hi]} as a half-open pair: from lo to the key just after hi. */
    public KeySpan withSentinels() {
        byte[] end = Arrays.copyOf(hi, hi.length + 1);
        return new KeySpan(lo, end);
    }

    /** The keys strictly between the sentinels. */
    public KeySpan between() {
        byte[] start = Arrays.copyOf(lo, lo.length + 1);
        return new KeySpan(start, hi);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyFamily f && name.equals(f.name) && columnFamily.equals(f.columnFamily)
                && Arrays.equals(lo, f.lo) && Arrays.equals(hi, f.hi);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, columnFamily, Arrays.hashCode(lo), Arrays.hashCode(hi));
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "KeyFamily[" + name + " in " + columnFamily + ", lo=" + hex.formatHex(lo) + ", hi=" + hex.formatHex(hi)
                + "]";
    }
}
