package io.ankusa.api;

/**
 * A {@link TraceContext} that is not a valid W3C Trace Context ({@link #error()}
 * {@code "invalid_trace_context"}): a malformed {@code traceparent} or a {@code tracestate} past
 * its bound. Nothing was written.
 */
public final class InvalidTraceContextException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /**
     * A refusal.
     *
     * @param message what is wrong, for people
     */
    public InvalidTraceContextException(String message) {
        super("invalid_trace_context", message);
    }
}
