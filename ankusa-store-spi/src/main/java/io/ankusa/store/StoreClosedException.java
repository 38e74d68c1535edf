package io.ankusa.store;

/** The store was used after {@link Store#close()}. */
public class StoreClosedException extends StoreException {

    private static final long serialVersionUID = 1L;

    /** With a message. */
    public StoreClosedException(String message) {
        super(StoreError.CLOSED, message);
    }

    /** With a message and the backend's cause. */
    public StoreClosedException(String message, Throwable cause) {
        super(StoreError.CLOSED, message, cause);
    }
}
