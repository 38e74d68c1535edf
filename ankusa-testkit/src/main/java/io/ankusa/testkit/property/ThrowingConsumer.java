package io.ankusa.testkit.property;

/** A check that may throw anything; an {@link AssertionError} or exception fails the property. */
@FunctionalInterface
public interface ThrowingConsumer<T> {

    /** Checks {@code value}. */
    void accept(T value) throws Exception;
}
