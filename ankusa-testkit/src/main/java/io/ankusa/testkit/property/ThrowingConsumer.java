package io.ankusa.testkit.property;

/** A check that may throw anything; an {@link AssertionError} or exception fails the property. */
@FunctionalInterface
public interface ThrowingConsumer<T> {

    /**
     * Checks {@code value}.
     *
     * @param value the value to check
     * @throws Exception when the check fails; any exception or assertion error fails the property
     */
    void accept(T value) throws Exception;
}
