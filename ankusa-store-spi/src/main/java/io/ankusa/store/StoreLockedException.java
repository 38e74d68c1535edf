package io.ankusa.store;

/** The store directory is held by another process or another open store. */
public class StoreLockedException extends StoreException {

    private static final long serialVersionUID = 1L;

    /** With a message. */
    public StoreLockedException(String message) {
        super(StoreError.LOCKED, message);
    }

    /** With a message and the backend's cause. */
    public StoreLockedException(String message, Throwable cause) {
        super(StoreError.LOCKED, message, cause);
    }
}
