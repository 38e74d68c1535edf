package io.ankusa.store;

import java.util.Objects;

/** Base of every error a store raises; backends never leak their own exception types. */
public class StoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final StoreError reason;

    /** An error with a reason and a message. */
    public StoreException(StoreError reason, String message) {
        this(reason, message, null);
    }

    /** An error with a reason, a message and the backend's cause. */
    public StoreException(StoreError reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** Why it failed. */
    public StoreError reason() {
        return reason;
    }
}
