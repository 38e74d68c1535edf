package io.ankusa.store;

/** Machine-readable reason of a {@link StoreException}. */
public enum StoreError {
    /** Input the contract refuses: empty key, inverted range, a write that does not fit the family kind. */
    INVALID_ARGUMENT,
    /** A family name the store was not opened with. */
    UNKNOWN_FAMILY,
    /** The store was opened with families that disagree with those it holds (kind or set). */
    FAMILY_MISMATCH,
    /** The store was written by another backend than the one opening it. */
    BACKEND_MISMATCH,
    /** The store is closed. */
    CLOSED,
    /** No store at the path and creation was not asked for. */
    NOT_FOUND,
    /** Another process (or another open in this one) holds the store. */
    LOCKED,
    /** Data on disk failed a checksum or could not be decoded. */
    CORRUPTION,
    /**
     * The device holding the store is full; the failed call wrote nothing, earlier commits stand.
     * Free space, then retry (RocksDB resumes writing by itself once there is room).
     */
    NO_SPACE,
    /** An I/O or backend failure that is none of the above. */
    IO
}
