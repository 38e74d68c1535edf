package io.ankusa.api;

import java.util.Objects;

/** Base of Ankusa's unchecked exceptions; {@link #error()} is a stable machine-readable reason. */
public class AnkusaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The machine-readable reason. */
    private final String error;

    /**
     * An exception with a machine-readable reason and a message for people.
     *
     * @param error the machine-readable reason, such as {@code "tenant_limit"}
     * @param message what happened, for people
     */
    public AnkusaException(String error, String message) {
        this(error, message, null);
    }

    /**
     * An exception with a reason, a message and a cause.
     *
     * @param error the machine-readable reason, such as {@code "tenant_limit"}
     * @param message what happened, for people
     * @param cause what caused it, or null
     */
    public AnkusaException(String error, String message, Throwable cause) {
        super(message, cause);
        this.error = Objects.requireNonNull(error, "error");
    }

    /** {@return the machine-readable reason, such as {@code "tenant_limit"}} */
    public String error() {
        return error;
    }
}
