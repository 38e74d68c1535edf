package io.ankusa.store;

/** A family name the store was not opened with. */
public class UnknownFamilyException extends StoreException {

    private static final long serialVersionUID = 1L;

    /**
     * With a message.
     *
     * @param message what happened, for people
     */
    public UnknownFamilyException(String message) {
        super(StoreError.UNKNOWN_FAMILY, message);
    }

    /**
     * With a message and the backend's cause.
     *
     * @param message what happened, for people
     * @param cause the backend's exception
     */
    public UnknownFamilyException(String message, Throwable cause) {
        super(StoreError.UNKNOWN_FAMILY, message, cause);
    }
}
