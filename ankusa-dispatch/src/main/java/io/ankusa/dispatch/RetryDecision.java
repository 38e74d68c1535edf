package io.ankusa.dispatch;

import java.time.Duration;
import java.util.Objects;

/** What a {@link RetryPolicy} decided after a failed attempt: try again after a delay, or give up. */
public sealed interface RetryDecision {

    /** Try again once {@code delay} has passed from now. */
    static RetryAfter retryAfter(Duration delay) {
        return new RetryAfter(delay);
    }

    /** No further attempt: the delivery goes to the dead letters. */
    static GiveUp giveUp(String reason) {
        return new GiveUp(reason);
    }

    /**
     * Try again once {@code delay} has passed from now.
     *
     * @param delay not negative; zero means as soon as the pipeline gets to it
     */
    record RetryAfter(Duration delay) implements RetryDecision {

        /** Validates. */
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

        /** Validates. */
        public GiveUp {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
