package io.ankusa.store;

import java.util.Objects;

/** Base of every error a store raises; backends never leak their own exception types. */
public class StoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why it failed. */
    private final StoreError reason;

    /**
     * An error with a reason and a message.
     *
     * @param reason why it failed
     * @param message what happened, for people
     */
    public StoreException(StoreError reason, String message) {
        this(reason, message, null);
    }

    /**
     * An error with a reason, a message and the backend's cause.
     *
     * @param reason why it failed
     * @param message what happened, for people
     * @param cause the backend's exception, or null
     */
    public StoreException(StoreError reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** {@return why it failed} */
    public StoreError reason() {
        return reason;
    }
}
