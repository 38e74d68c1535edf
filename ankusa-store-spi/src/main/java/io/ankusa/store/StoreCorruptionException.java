package io.ankusa.store;

/** Data failed a checksum or did not decode; a scan that meets it throws this rather than ending early. */
public class StoreCorruptionException extends StoreException {

    private static final long serialVersionUID = 1L;

    /**
     * With a message.
     *
     * @param message what happened, for people
     */
    public StoreCorruptionException(String message) {
        super(StoreError.CORRUPTION, message);
    }

    /**
     * With a message and the backend's cause.
     *
     * @param message what happened, for people
     * @param cause the backend's exception
     */
    public StoreCorruptionException(String message, Throwable cause) {
        super(StoreError.CORRUPTION, message, cause);
    }
}
