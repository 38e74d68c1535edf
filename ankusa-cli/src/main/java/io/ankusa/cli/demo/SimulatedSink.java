package io.ankusa.cli.demo;

import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The demo's receiver: takes every delivery at once, except that an attempt fails with
 * probability {@code failRate}, and a failure is permanent (dead, no retry) with probability
 * {@code permanentShare}, else transient (retry).
 *
 * <p>The outcome is a pure function of the seed, the hook id and the attempt number, so a demo
 * run gives the same counts whatever the threads do. Thread-safe and stateless.
 */
public final class SimulatedSink implements Sink {

    private final long seed;
    private final double failRate;
    private final double permanentShare;

    /**
     * A sink failing {@code failRate} of attempts, {@code permanentShare} of those for good.
     *
     * @throws IllegalArgumentException unless both are in {@code [0, 1]}
     */
    public SimulatedSink(long seed, double failRate, double permanentShare) {
        requireFraction(failRate, "fail rate");
        requireFraction(permanentShare, "permanent share");
        this.seed = seed;
        this.failRate = failRate;
        this.permanentShare = permanentShare;
    }

    @Override
    public CompletionStage<SinkOutcome> deliver(Delivery delivery) {
        long h = mix(seed ^ mix(delivery.hookId().hashCode() * 0x9E3779B97F4A7C15L + delivery.attempt()));
        double first = (h >>> 11) * 0x1.0p-53;
        double second = (mix(h) >>> 11) * 0x1.0p-53;
        SinkOutcome outcome;
        if (first >= failRate) {
            outcome = SinkOutcome.delivered();
        } else if (second < permanentShare) {
            outcome = SinkOutcome.dead("simulated permanent failure (410 Gone)");
        } else {
            outcome = SinkOutcome.retry("simulated transient failure (503)");
        }
        return CompletableFuture.completedFuture(outcome);
    }

    /** SplitMix64's finalizer: spreads the bits of {@code z}. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static void requireFraction(double value, String what) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(what + " must be within 0..1: " + value);
        }
    }
}
