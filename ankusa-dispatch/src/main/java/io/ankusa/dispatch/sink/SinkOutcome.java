package io.ankusa.dispatch.sink;

import io.ankusa.api.AttemptErrorClass;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How one delivery attempt ended: {@link Delivered}, {@link Retry} (maybe after a hint) or
 * {@link Dead} (a permanent failure: no further attempt) — or one of the two endpoint outcomes,
 * {@link EndpointGone} (the receiver said {@code 410 Gone}) and {@link EndpointDisabled} (the
 * application disabled the endpoint), which say something about the endpoint rather than this
 * delivery.
 *
 * <p>{@link EndpointGone} disables the endpoint {@code (tenant, sink)} in the store, in the
 * settle's own batch, and the delivery waits with the endpoint's others until an operator enables
 * it ({@code Queue.enableEndpoint}); with {@code endpoint.disabled-policy = dead-letter} it is
 * dead-lettered instead. {@link EndpointDisabled} (the application's resolver disabled the
 * endpoint) is dead-lettered with its reason, replayable once the endpoint is back.
 *
 * <p>A retry is a request, not a promise: the {@link RetryPolicy} decides when the next attempt
 * happens and whether there is one.
 *
 * <p>Besides the free-text {@link #reason()}, an outcome carries what the attempt history and the
 * {@code AttemptFinished} event record as types: the HTTP {@link #status()} the receiver answered,
 * when there was one, and the {@link #errorClass()} of a failure. The built-in HTTP sink sets both;
 * a custom sink may (the factories without them leave the status empty and the class
 * {@link AttemptErrorClass#OTHER}).
 */
public sealed interface SinkOutcome {

    /** Reason prefix of an {@link EndpointGone} outcome. */
    String ENDPOINT_GONE = "endpoint_gone";

    /** Reason prefix of an {@link EndpointDisabled} outcome. */
    String ENDPOINT_DISABLED = "endpoint_disabled";

    /**
     * The sink took the hook.
     *
     * @return the outcome that settles the delivery as delivered
     */
    static Delivered delivered() {
        return Delivered.INSTANCE;
    }

    /**
     * The sink took the hook, and the receiver answered {@code status}.
     *
     * @param status the HTTP status (2xx)
     * @return the outcome that settles the delivery as delivered
     */
    static Delivered delivered(int status) {
        return new Delivered(OptionalInt.of(status));
    }

    /**
     * The attempt failed for a reason of class {@code errorClass}, and another may succeed.
     *
     * @param reason     why the attempt failed, for people and logs
     * @param errorClass the class of the failure
     * @return the outcome that schedules another attempt
     */
    static Retry retry(String reason, AttemptErrorClass errorClass) {
        return new Retry(Optional.empty(), reason, OptionalInt.empty(), errorClass);
    }

    /**
     * The attempt failed for good, for a reason of class {@code errorClass}.
     *
     * @param reason     why, kept as the dead letter's last error
     * @param errorClass the class of the failure
     * @return the outcome that dead-letters the delivery
     */
    static Dead dead(String reason, AttemptErrorClass errorClass) {
        return new Dead(reason, OptionalInt.empty(), errorClass);
    }

    /**
     * The attempt failed and another may succeed; the retry policy picks the time.
     *
     * @param reason why the attempt failed, for people and logs
     * @return the outcome that schedules another attempt
     */
    static Retry retry(String reason) {
        return new Retry(Optional.empty(), reason);
    }

    /**
     * The attempt failed and the sink asked not to be tried again before {@code after}.
     *
     * @param after  the least time before the next attempt (capped by the policy's hint limit)
     * @param reason why the attempt failed, for people and logs
     * @return the outcome that schedules another attempt no sooner than {@code after}
     */
    static Retry retryAfter(Duration after, String reason) {
        return new Retry(Optional.of(after), reason);
    }

    /**
     * The attempt failed for good: the delivery goes to the dead letters.
     *
     * @param reason why, kept as the dead letter's last error
     * @return the outcome that dead-letters the delivery
     */
    static Dead dead(String reason) {
        return new Dead(reason);
    }

    /**
     * The endpoint said it is gone ({@code 410}): the endpoint is disabled and the delivery waits
     * for it to be enabled; the reason is prefixed {@value #ENDPOINT_GONE}.
     *
     * @param detail what the endpoint answered, for people
     * @return the outcome that disables the endpoint
     */
    static EndpointGone endpointGone(String detail) {
        return new EndpointGone(ENDPOINT_GONE + ": " + detail);
    }

    /**
     * The endpoint is disabled by the application: no attempt was made; the reason is prefixed
     * {@value #ENDPOINT_DISABLED}.
     *
     * @param detail which endpoint, for people
     * @return the outcome that dead-letters the delivery as endpoint disabled
     */
    static EndpointDisabled endpointDisabled(String detail) {
        return new EndpointDisabled(ENDPOINT_DISABLED + ": " + detail);
    }

    /**
     * The reason, for people and logs; empty for {@link Delivered}.
     *
     * @return why the attempt ended as it did, or the empty string
     */
    default String reason() {
        return "";
    }

    /**
     * The HTTP status the receiver answered, when there was an answer.
     *
     * @return the status, or empty (no response, or a sink that does not speak HTTP)
     */
    default OptionalInt status() {
        return OptionalInt.empty();
    }

    /**
     * The class of the failure; {@link AttemptErrorClass#NONE} for {@link Delivered}.
     *
     * @return the class
     */
    default AttemptErrorClass errorClass() {
        return AttemptErrorClass.OTHER;
    }

    /**
     * The sink took the hook.
     *
     * @param status the HTTP status the receiver answered, when the sink reports one
     */
    record Delivered(OptionalInt status) implements SinkOutcome {
        private static final Delivered INSTANCE = new Delivered(OptionalInt.empty());

        /**
         * Validates.
         *
         * @param status the HTTP status the receiver answered, when the sink reports one
         */
        public Delivered {
            Objects.requireNonNull(status, "status");
        }

        /** Delivered, with no status reported. */
        public Delivered() {
            this(OptionalInt.empty());
        }

        @Override
        public AttemptErrorClass errorClass() {
            return AttemptErrorClass.NONE;
        }
    }

    /**
     * The attempt failed and may be retried.
     *
     * @param after      the sink's hint (a {@code Retry-After}): do not try again earlier; empty when
     *                   the sink gave none
     * @param reason     why, for people and logs
     * @param status     the HTTP status the receiver answered, when there was an answer
     * @param errorClass the class of the failure
     */
    record Retry(Optional<Duration> after, String reason, OptionalInt status, AttemptErrorClass errorClass)
            implements SinkOutcome {

        /**
         * Validates: the hint, when present, is not negative.
         *
         * @param after the sink's hint (a {@code Retry-After}): do not try again earlier; empty when the sink gave none
         * @param reason why, for people and logs
         * @param status the HTTP status the receiver answered, when there was an answer
         * @param errorClass the class of the failure
         */
        public Retry {
            Objects.requireNonNull(after, "after");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(errorClass, "errorClass");
            after.ifPresent(hint -> {
                if (hint.isNegative()) {
                    throw new IllegalArgumentException("retry-after hint must not be negative: " + hint);
                }
            });
        }

        /**
         * A retry with no status and the class {@link AttemptErrorClass#OTHER}.
         *
         * @param after the sink's hint, or empty
         * @param reason why, for people and logs
         */
        public Retry(Optional<Duration> after, String reason) {
            this(after, reason, OptionalInt.empty(), AttemptErrorClass.OTHER);
        }
    }

    /**
     * The attempt failed for good.
     *
     * @param reason     why, for people and logs
     * @param status     the HTTP status the receiver answered, when there was an answer
     * @param errorClass the class of the failure
     */
    record Dead(String reason, OptionalInt status, AttemptErrorClass errorClass) implements SinkOutcome {

        /**
         * Validates.
         *
         * @param reason why, for people and logs
         * @param status the HTTP status the receiver answered, when there was an answer
         * @param errorClass the class of the failure
         */
        public Dead {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(errorClass, "errorClass");
        }

        /**
         * A permanent failure with no status and the class {@link AttemptErrorClass#OTHER}.
         *
         * @param reason why, for people and logs
         */
        public Dead(String reason) {
            this(reason, OptionalInt.empty(), AttemptErrorClass.OTHER);
        }
    }

    /**
     * The endpoint answered {@code 410 Gone}: it asked not to be sent more. Disables the endpoint
     * (stored); the delivery waits, or is dead-lettered, as {@code endpoint.disabled-policy} says.
     *
     * @param reason why, starting {@value SinkOutcome#ENDPOINT_GONE}
     */
    record EndpointGone(String reason) implements SinkOutcome {

        /**
         * Validates.
         *
         * @param reason why, starting {@value SinkOutcome#ENDPOINT_GONE}
         */
        public EndpointGone {
            Objects.requireNonNull(reason, "reason");
        }

        /** {@return 410, what the endpoint answered} */
        @Override
        public OptionalInt status() {
            return OptionalInt.of(410);
        }

        @Override
        public AttemptErrorClass errorClass() {
            return AttemptErrorClass.HTTP_4XX;
        }
    }

    /**
     * The endpoint is disabled (by the application's resolver, or by the queue with
     * {@code endpoint.disabled-policy = dead-letter}), so nothing was sent. Dead-lettered.
     *
     * @param reason why, starting {@value SinkOutcome#ENDPOINT_DISABLED}
     */
    record EndpointDisabled(String reason) implements SinkOutcome {

        /**
         * Validates.
         *
         * @param reason why, starting {@value SinkOutcome#ENDPOINT_DISABLED}
         */
        public EndpointDisabled {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public AttemptErrorClass errorClass() {
            return AttemptErrorClass.ENDPOINT_DISABLED;
        }
    }
}
