package io.ankusa.api;

/**
 * A long-lived thread of the queue died ({@link #error()} {@code "queue_failed"}): the call could
 * not be served and nothing more will be. The message names the thread and the cause; the cause is
 * attached. What was acknowledged before stays on disk; reopen the queue (docs/operations.md).
 */
public final class QueueFailedException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /**
     * A failure of {@code component}.
     *
     * @param component the thread that died, such as {@code "ingest writer"}
     * @param cause     what ended it
     */
    public QueueFailedException(String component, Throwable cause) {
        super("queue_failed", "the queue failed: its " + component + " died of " + cause, cause);
    }
}
