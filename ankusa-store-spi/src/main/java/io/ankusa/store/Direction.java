package io.ankusa.store;

/** Scan order over unsigned byte keys. */
public enum Direction {
    /** Ascending key order. */
    FORWARD,
    /** Descending key order. */
    REVERSE
}
