package io.ankusa.dispatch;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

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

    /** The sink took the hook. */
    record Delivered() implements SinkOutcome {
        private static final Delivered INSTANCE = new Delivered();
    }

    /**
     * The attempt failed and may be retried.
     *
     * @param after  the sink's hint (a {@code Retry-After}): do not try again earlier; empty when
     *               the sink gave none
     * @param reason why, for people and logs
     */
    record Retry(Optional<Duration> after, String reason) implements SinkOutcome {

        /**
         * Validates: the hint, when present, is not negative.
         *
         * @param after the sink's hint (a {@code Retry-After}): do not try again earlier; empty when the sink gave none
         * @param reason why, for people and logs
         */
        public Retry {
            Objects.requireNonNull(after, "after");
            Objects.requireNonNull(reason, "reason");
            after.ifPresent(hint -> {
                if (hint.isNegative()) {
                    throw new IllegalArgumentException("retry-after hint must not be negative: " + hint);
                }
            });
        }
    }

    /**
     * The attempt failed for good.
     *
     * @param reason why, for people and logs
     */
    record Dead(String reason) implements SinkOutcome {

        /**
         * Validates.
         *
         * @param reason why, for people and logs
         */
        public Dead {
            Objects.requireNonNull(reason, "reason");
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
    }
}
