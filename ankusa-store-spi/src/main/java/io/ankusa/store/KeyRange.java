package io.ankusa.store;

import java.util.Objects;

/**
 * A half-open key range {@code [from, to)} in unsigned byte order. An empty {@code from} is the
 * start of the family; an unbounded range has no upper end.
 */
public final class KeyRange {

    private static final byte[] EMPTY = new byte[0];
    private static final KeyRange ALL = new KeyRange(EMPTY, null);

    private final byte[] from;
    private final byte[] to;

    private KeyRange(byte[] from, byte[] to) {
        this.from = from;
        this.to = to;
    }

    /**
     * {@code [from, to)}.
     *
     * @param from the inclusive start
     * @param to the exclusive end
     * @return the range (the arrays are copied)
     * @throws StoreException with {@link StoreError#INVALID_ARGUMENT} when {@code from > to}
     */
    public static KeyRange of(byte[] from, byte[] to) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (Bytes.compare(from, to) > 0) {
            throw new StoreException(StoreError.INVALID_ARGUMENT,
                    "range start " + Bytes.hex(from) + " is after its end " + Bytes.hex(to));
        }
        return new KeyRange(from.clone(), to.clone());
    }

    /**
     * Every key that starts with {@code prefix}.
     *
     * @param prefix the common prefix
     * @return the range (the array is copied)
     */
    public static KeyRange prefix(byte[] prefix) {
        Objects.requireNonNull(prefix, "prefix");
        return new KeyRange(prefix.clone(), Bytes.prefixEnd(prefix).orElse(null));
    }

    /**
     * Every key from {@code from} on.
     *
     * @param from the inclusive start
     * @return the range, unbounded above (the array is copied)
     */
    public static KeyRange atLeast(byte[] from) {
        Objects.requireNonNull(from, "from");
        return new KeyRange(from.clone(), null);
    }

    /** {@return the whole family} */
    public static KeyRange all() {
        return ALL;
    }

    /**
     * Inclusive start (a copy); empty means the start of the family.
     *
     * @return a copy of the start
     */
    public byte[] from() {
        return from.clone();
    }

    /** {@return whether the range has an upper end} */
    public boolean bounded() {
        return to != null;
    }

    /**
     * Exclusive end (a copy); only when {@link #bounded()}.
     *
     * @return a copy of the end
     */
    public byte[] to() {
        if (to == null) {
            throw new IllegalStateException("unbounded range has no end");
        }
        return to.clone();
    }

    /**
     * Whether {@code key} lies in the range.
     *
     * @param key a key
     * @return true when {@code from <= key < to} (no upper check when unbounded)
     */
    public boolean contains(byte[] key) {
        return Bytes.compare(key, from) >= 0 && (to == null || Bytes.compare(key, to) < 0);
    }

    @Override
    public String toString() {
        return "[" + Bytes.hex(from) + ", " + (to == null ? "end" : Bytes.hex(to)) + ")";
    }
}
