package io.ankusa.api;

/**
 * The queue's clock reads a time before 1970-01-01T00:00:00Z ({@link #error()}
 * {@code "clock_before_epoch"}): a fault of the host or of the configured {@code InstantSource},
 * not of the hook. Stored times are unsigned, so the queue refuses the work that needed the time
 * and writes nothing; hooks acknowledged earlier are untouched, and work succeeds again once the
 * clock reads a sane time.
 */
public final class ClockBeforeEpochException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /** What the clock read. */
    private final long millis;

    /**
     * The clock read {@code millis} (negative) epoch milliseconds.
     *
     * @param millis what the clock read
     */
    public ClockBeforeEpochException(long millis) {
        super("clock_before_epoch", "the clock reads " + millis + " ms, before 1970-01-01T00:00:00Z;"
                + " nothing was written: set the host's clock (or fix the configured clock) and retry");
        this.millis = millis;
    }

    /** {@return what the clock read, epoch milliseconds (negative)} */
    public long millis() {
        return millis;
    }
}
