package io.ankusa.store;

/** What a column family holds: ordinary values, or 64-bit counters written only by merges. */
public enum FamilyKind {
    /** Values written with put and delete. */
    PLAIN,
    /** Signed 64-bit counters written with blind merge operands (sum); never put. */
    COUNTER
}
