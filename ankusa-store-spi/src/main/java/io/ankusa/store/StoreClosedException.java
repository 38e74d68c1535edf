package io.ankusa.store;

/** The store was used after {@link Store#close()}. */
public class StoreClosedException extends StoreException {

    private static final long serialVersionUID = 1L;

    /**
     * With a message.
     *
     * @param message what happened, for people
     */
    public StoreClosedException(String message) {
        super(StoreError.CLOSED, message);
    }

    /**
     * With a message and the backend's cause.
     *
     * @param message what happened, for people
     * @param cause the backend's exception
     */
    public StoreClosedException(String message, Throwable cause) {
        super(StoreError.CLOSED, message, cause);
    }
}
