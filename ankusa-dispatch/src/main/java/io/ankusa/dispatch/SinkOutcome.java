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
 * <p>Today the pipeline dead-letters a delivery whose outcome is an endpoint outcome, with the
 * outcome's reason (it starts {@value #ENDPOINT_GONE} or {@value #ENDPOINT_DISABLED}), so it can be
 * replayed once the endpoint is back. They are distinct types because endpoint state is where
 * they lead: a persisted "endpoint disabled" that holds the endpoint's deliveries instead.
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
     * The endpoint said it is gone ({@code 410}): no further attempt for this delivery; the reason
     * is prefixed {@value #ENDPOINT_GONE}.
     *
     * @param detail what the endpoint answered, for people
     * @return the outcome that dead-letters the delivery as endpoint gone
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
     * The endpoint answered {@code 410 Gone}: it asked not to be sent more. Dead-lettered today;
     * the hook for disabling the endpoint.
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
     * The endpoint is disabled, so nothing was sent. Dead-lettered today; the hook for holding the
     * endpoint's deliveries until it is enabled again.
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
