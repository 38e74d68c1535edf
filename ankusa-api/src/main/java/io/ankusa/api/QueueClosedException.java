package io.ankusa.api;

/** The queue was closed before the call could be served ({@link #error()} {@code "queue_closed"}). */
public final class QueueClosedException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /**
     * With a message.
     *
     * @param message what was refused, for people
     */
    public QueueClosedException(String message) {
        super("queue_closed", message);
    }
}
