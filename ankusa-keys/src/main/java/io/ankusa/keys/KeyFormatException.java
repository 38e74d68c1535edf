package io.ankusa.keys;

import java.util.HexFormat;

/**
 * Bytes that do not decode as the key or value they were read as: a caller bug or corrupt data.
 * The message names the family, what was expected and the bytes seen.
 */
public final class KeyFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String family;

    /** Bytes of {@code family} that are not what {@code expected} says. */
    public KeyFormatException(String family, String expected, byte[] seen) {
        super(family + ": expected " + expected + ", got " + (seen == null ? "null"
                : seen.length + " bytes " + HexFormat.of().formatHex(seen)));
        this.family = family;
    }

    /** The key family (or value layout) that failed to decode, for example {@code "due"}. */
    public String family() {
        return family;
    }
}
