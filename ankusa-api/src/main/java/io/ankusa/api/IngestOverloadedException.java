package io.ankusa.api;

/**
 * The ingest writer's queue is full ({@link #error()} {@code "ingest_overloaded"}): the store
 * cannot keep up. Nothing was written; try again shortly (an HTTP front end answers 503).
 */
public final class IngestOverloadedException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /**
     * With the capacity that was reached.
     *
     * @param capacity the ingest queue capacity that was reached
     */
    public IngestOverloadedException(int capacity) {
        super("ingest_overloaded", "ingest queue is full (" + capacity + " hooks waiting)");
    }
}
