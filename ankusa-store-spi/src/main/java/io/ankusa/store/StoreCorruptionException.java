package io.ankusa.store;

/** Data failed a checksum or did not decode; a scan that meets it throws this rather than ending early. */
public class StoreCorruptionException extends StoreException {

    private static final long serialVersionUID = 1L;

    /** With a message. */
    public StoreCorruptionException(String message) {
        super(StoreError.CORRUPTION, message);
    }

    /** With a message and the backend's cause. */
    public StoreCorruptionException(String message, Throwable cause) {
        super(StoreError.CORRUPTION, message, cause);
    }
}
