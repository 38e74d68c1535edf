package io.ankusa.store;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A column family declared when a store is opened.
 *
 * @param name             family name: 1 to 64 characters of {@code [a-z0-9_]}
 * @param kind             plain values or counters
 * @param writeBufferBytes write-buffer (memtable) size hint in bytes; backends without one ignore it
 * @param compressed       compression hint; backends without compression ignore it
 */
public record FamilySpec(String name, FamilyKind kind, long writeBufferBytes, boolean compressed) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9_]{1,64}");

    /** Default write buffer of a plain family: 16 MiB. */
    public static final long DEFAULT_WRITE_BUFFER = 16L << 20;

    /** Default write buffer of a counter family: 1 MiB, so a flush soon collapses merge operands. */
    public static final long COUNTER_WRITE_BUFFER = 1L << 20;

    /**
     * Validates the declaration.
     *
     * @param name family name: 1 to 64 characters of {@code [a-z0-9_]}
     * @param kind plain values or counters
     * @param writeBufferBytes write-buffer (memtable) size hint in bytes; backends without one ignore it
     * @param compressed compression hint; backends without compression ignore it
     */
    public FamilySpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("family name must match [a-z0-9_]{1,64}: '" + name + "'");
        }
        if (writeBufferBytes < 0) {
            throw new IllegalArgumentException("writeBufferBytes must be >= 0: " + writeBufferBytes);
        }
    }

    /**
     * A plain family with a 16 MiB write buffer and compression on.
     *
     * @param name the family's name
     * @return the spec
     */
    public static FamilySpec plain(String name) {
        return new FamilySpec(name, FamilyKind.PLAIN, DEFAULT_WRITE_BUFFER, true);
    }

    /**
     * A counter family with a 1 MiB write buffer and no compression.
     *
     * @param name the family's name
     * @return the spec
     */
    public static FamilySpec counter(String name) {
        return new FamilySpec(name, FamilyKind.COUNTER, COUNTER_WRITE_BUFFER, false);
    }
}
