package io.ankusa.dispatch.engine;

import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * Whether the sink still answers: the time of its last outcome and whether the last attempt to end
 * ended at the pipeline's sink deadline instead. A sink that stops completing its stages (a thread
 * pool gone, a lock never released) shows as attempts running out the deadline with no outcome
 * since; an endpoint that does not answer is an outcome of an HTTP sink (its own timeout), so it
 * never shows here.
 *
 * <p>Written by the sinks' threads and the deadline's timer; read by whoever measures the health.
 */
final class SinkPulse {

    private final LongSupplier nanoTime;
    private volatile long lastOutcomeNanos;
    private volatile boolean missedSinceOutcome;

    SinkPulse(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.lastOutcomeNanos = nanoTime.getAsLong();
    }

    /** The sink gave an outcome (any outcome: delivered, retry, dead). */
    void outcome() {
        lastOutcomeNanos = nanoTime.getAsLong();
        missedSinceOutcome = false;
    }

    /** An attempt ran out the sink deadline without an outcome. */
    void missedDeadline() {
        missedSinceOutcome = true;
    }

    /**
     * How long (nanos) the sink has been silent: since its last outcome, when an attempt ran out the
     * deadline after it; empty while it answers.
     */
    OptionalLong silentForNanos() {
        if (!missedSinceOutcome) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Math.max(0, nanoTime.getAsLong() - lastOutcomeNanos));
    }
}
