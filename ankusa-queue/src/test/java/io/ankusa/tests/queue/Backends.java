package io.ankusa.tests.queue;

import java.util.stream.Stream;

/**
 * The real store backends every queue test runs on, as a JUnit parameter source:
 * {@code @MethodSource("io.ankusa.tests.queue.Backends#names")}.
 */
public final class Backends {

    private Backends() {
    }

    /** The backend names. */
    public static Stream<String> names() {
        return Stream.of("rocksdb", "lmdb");
    }
}
