package io.ankusa.dispatch.sink;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The sinks of a pipeline by number, and the one {@link Sink} the pipeline calls: it routes each
 * delivery to the sink its {@link Delivery#sink()} names.
 *
 * <p>Its {@link #deliver(Delivery)} never throws and never fails its stage, whatever the sinks do:
 * <ul>
 *   <li>an unknown sink number ends {@link SinkOutcome.Dead dead} with a reason starting
 *       {@value #UNKNOWN_SINK}: a retry cannot make a missing sink appear, and a dead letter can be
 *       replayed once the configuration has the sink again;</li>
 *   <li>a sink that throws, returns no stage, fails its stage or completes it without an outcome
 *       ends {@link SinkOutcome.Retry retry} with a reason starting {@value #SINK_FAILED}, so
 *       the retry policy bounds the cost of a faulty sink.</li>
 * </ul>
 * The pipeline asks {@link #endpointConcurrency(int)} for each sink number's per-endpoint limit;
 * the router itself declares none. Immutable; built with {@link #builder()}.
 */
public final class Sinks implements Sink {

    /** Reason prefix of the outcome for a sink number with no sink. */
    public static final String UNKNOWN_SINK = "unknown_sink";

    /** Reason prefix of the outcome for a sink that broke its contract. */
    public static final String SINK_FAILED = "sink_failed";

    private final Map<Integer, Sink> byNumber;
    private final String description;

    private Sinks(Map<Integer, Sink> byNumber) {
        this.byNumber = Map.copyOf(byNumber);
        this.description = "Sinks" + new TreeMap<>(byNumber).keySet();
    }

    /**
     * An empty builder.
     *
     * @return a builder with no sink yet
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The sink with this number, if there is one.
     *
     * @param number the sink number, 0 .. 65 535
     * @return the sink added under that number, or empty
     */
    public Optional<Sink> sink(int number) {
        return Optional.ofNullable(byNumber.get(number));
    }

    /**
     * The {@linkplain Sink#endpointConcurrency() endpoint concurrency} the sink with this number
     * declares; {@link Sink#UNBOUNDED} when there is no such sink (its deliveries end dead
     * without a request).
     *
     * @param number the sink number, 0 .. 65 535
     * @return the numbered sink's limit per endpoint
     */
    public int endpointConcurrency(int number) {
        Sink sink = byNumber.get(number);
        return sink == null ? UNBOUNDED : sink.endpointConcurrency();
    }

    /** Routes {@code delivery} to its sink; see the class comment for what can come back. */
    @Override
    public CompletionStage<SinkOutcome> deliver(Delivery delivery) {
        Sink sink = byNumber.get(delivery.sink());
        if (sink == null) {
            return CompletableFuture.completedStage(SinkOutcome.dead(
                    UNKNOWN_SINK + ": no sink has number " + delivery.sink()));
        }
        CompletionStage<SinkOutcome> stage;
        try {
            stage = sink.deliver(delivery);
        } catch (RuntimeException e) {
            return CompletableFuture.completedStage(SinkOutcome.retry(SINK_FAILED + ": threw " + e));
        }
        if (stage == null) {
            return CompletableFuture.completedStage(SinkOutcome.retry(SINK_FAILED + ": returned no stage"));
        }
        return stage.handle(Sinks::guard);
    }

    private static SinkOutcome guard(SinkOutcome outcome, Throwable failure) {
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            return SinkOutcome.retry(SINK_FAILED + ": stage failed with " + cause);
        }
        if (outcome == null) {
            return SinkOutcome.retry(SINK_FAILED + ": stage completed without an outcome");
        }
        return outcome;
    }

    /** Lists the sink numbers. */
    @Override
    public String toString() {
        return description;
    }

    /** Collects sinks by number; each number once. */
    public static final class Builder {

        private final Map<Integer, Sink> byNumber = new TreeMap<>();

        private Builder() {
        }

        /**
         * Adds {@code sink} under {@code number} (0 .. 65 535).
         *
         * @param number the sink number deliveries name, 0 .. 65 535
         * @param sink   the sink that receives them
         * @return this builder
         * @throws IllegalArgumentException when the number is out of range or already taken
         */
        public Builder sink(int number, Sink sink) {
            Objects.requireNonNull(sink, "sink");
            if (number < 0 || number > Delivery.MAX_SINK) {
                throw new IllegalArgumentException("sink number must be in 0.." + Delivery.MAX_SINK + ": " + number);
            }
            if (byNumber.putIfAbsent(number, sink) != null) {
                throw new IllegalArgumentException("sink number " + number + " is already taken");
            }
            return this;
        }

        /**
         * The router.
         *
         * @return a router over the sinks added
         * @throws IllegalStateException when no sink was added
         */
        public Sinks build() {
            if (byNumber.isEmpty()) {
                throw new IllegalStateException("at least one sink is needed");
            }
            return new Sinks(byNumber);
        }
    }
}
