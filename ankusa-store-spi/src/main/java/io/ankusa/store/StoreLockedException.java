package io.ankusa.store;

/** The store directory is held by another process or another open store. */
public class StoreLockedException extends StoreException {

    private static final long serialVersionUID = 1L;

    /**
     * With a message.
     *
     * @param message what happened, for people
     */
    public StoreLockedException(String message) {
        super(StoreError.LOCKED, message);
    }

    /**
     * With a message and the backend's cause.
     *
     * @param message what happened, for people
     * @param cause the backend's exception
     */
    public StoreLockedException(String message, Throwable cause) {
        super(StoreError.LOCKED, message, cause);
    }
}
