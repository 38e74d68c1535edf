package io.ankusa.api;

import java.util.Objects;
import java.util.Optional;

/**
 * What a queue says about itself: running, failed (a long-lived thread died; every call now fails
 * with {@link QueueFailedException}) or closed. A value: read it as often as a health check likes.
 *
 * @param state     the state
 * @param component the thread that died, when failed
 * @param cause     what ended it ({@code Throwable.toString()}), when failed
 */
public record QueueHealth(State state, Optional<String> component, Optional<String> cause) {

    /** The states. */
    public enum State {
        /** Serving calls. */
        RUNNING,
        /** A long-lived thread died; calls fail with {@link QueueFailedException}. */
        FAILED,
        /** Closed by its owner. */
        CLOSED
    }

    /** A running queue. */
    public static final QueueHealth RUNNING = new QueueHealth(State.RUNNING, Optional.empty(), Optional.empty());

    /** A closed queue. */
    public static final QueueHealth CLOSED = new QueueHealth(State.CLOSED, Optional.empty(), Optional.empty());

    /**
     * Checks the parts.
     *
     * @param state     running, failed or closed
     * @param component the thread that died, when failed
     * @param cause     what ended it, when failed
     */
    public QueueHealth {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(cause, "cause");
    }

    /**
     * A failed queue.
     *
     * @param component the thread that died
     * @param cause     what ended it
     * @return the health
     */
    public static QueueHealth failed(String component, Throwable cause) {
        return new QueueHealth(State.FAILED, Optional.of(component), Optional.of(String.valueOf(cause)));
    }

    /** {@return whether the queue serves calls} */
    public boolean running() {
        return state == State.RUNNING;
    }
}
