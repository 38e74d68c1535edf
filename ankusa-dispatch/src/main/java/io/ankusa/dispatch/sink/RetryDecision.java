package io.ankusa.dispatch.sink;

import java.time.Duration;
import java.util.Objects;

/** What a {@link RetryPolicy} decided after a failed attempt: try again after a delay, or give up. */
public sealed interface RetryDecision {

    /**
     * Try again once {@code delay} has passed from now.
     *
     * @param delay how long to wait before the next attempt; not negative
     * @return the decision to retry after {@code delay}
     */
    static RetryAfter retryAfter(Duration delay) {
        return new RetryAfter(delay);
    }

    /**
     * No further attempt: the delivery goes to the dead letters.
     *
     * @param reason why, for people and the dead letter's last error
     * @return the decision to stop
     */
    static GiveUp giveUp(String reason) {
        return new GiveUp(reason);
    }

    /**
     * Try again once {@code delay} has passed from now.
     *
     * @param delay not negative; zero means as soon as the pipeline gets to it
     */
    record RetryAfter(Duration delay) implements RetryDecision {

        /**
         * Validates.
         *
         * @param delay not negative; zero means as soon as the pipeline gets to it
         */
        public RetryAfter {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("delay must not be negative: " + delay);
            }
        }
    }

    /**
     * No further attempt.
     *
     * @param reason why, for people and logs
     */
    record GiveUp(String reason) implements RetryDecision {

        /**
         * Validates.
         *
         * @param reason why, for people and logs
         */
        public GiveUp {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
