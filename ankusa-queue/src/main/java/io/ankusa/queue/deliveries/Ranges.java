package io.ankusa.queue.deliveries;

import io.ankusa.keys.KeySpan;
import io.ankusa.store.KeyRange;

/** Turns the layout's key spans into store ranges. */
final class Ranges {

    private Ranges() {
    }

    static KeyRange of(KeySpan span) {
        return KeyRange.of(span.from(), span.to());
    }

    /** The span from just after {@code key} to the end of {@code span}. */
    static KeyRange after(byte[] key, KeySpan span) {
        byte[] next = java.util.Arrays.copyOf(key, key.length + 1);
        return KeyRange.of(next, span.to());
    }
}
