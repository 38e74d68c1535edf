package io.ankusa.dispatch.sink;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Decides, after a failed attempt, whether a delivery is tried again and after how long.
 *
 * <p>The pipeline asks once per {@link SinkOutcome.Retry}; a {@link SinkOutcome.Dead} needs no
 * decision. Implementations are stateless with respect to deliveries (everything they need comes
 * in the arguments), so one policy serves every thread; randomness comes from the caller's
 * generator, which makes a decision replayable from a seed.
 *
 * <p>{@link #defaults()} is the Standard Webhooks specification's example schedule: ten attempts
 * over about three days (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h between them), with
 * ±20% jitter; {@link #builder()} configures another one.
 */
public interface RetryPolicy {

    /**
     * Decides what follows the failure of attempt {@code failedAttempt}.
     *
     * @param failedAttempt the number of the attempt that just failed, 1 for the first
     * @param failure       the sink's outcome, with its optional retry-after hint
     * @param random        the source of jitter
     * @return try again after a delay, or give up
     * @throws IllegalArgumentException when {@code failedAttempt} is below 1
     */
    RetryDecision decide(int failedAttempt, SinkOutcome.Retry failure, RandomGenerator random);

    /**
     * The default schedule: see {@link Builder} for its values.
     *
     * @return the policy with the default schedule, attempt limit, jitter and hint cap
     */
    static RetryPolicy defaults() {
        return ScheduledRetryPolicy.DEFAULTS;
    }

    /**
     * A builder starting from the default values.
     *
     * @return a builder holding the default values
     */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Configures a schedule-based policy. Defaults: schedule {@code 5 s, 5 min, 30 min, 2 h, 5 h,
     * 10 h, 14 h, 20 h, 24 h} (3 days 3 h 35 min 5 s from the first attempt to the tenth), 10
     * attempts, jitter 0.2, largest honoured hint 1 h.
     *
     * <p>The delay after failed attempt {@code n} is entry {@code n − 1} of the schedule (the last
     * entry repeats when attempts outnumber it), multiplied by a factor drawn uniformly from
     * {@code [1 − jitter, 1 + jitter]}, at millisecond precision. A sink's retry-after hint is a
     * floor: the delay is never shorter than the hint, except that hints longer than
     * {@link #maxHint(Duration)} count as that maximum. After attempt {@link #maxAttempts(int)}
     * fails the policy gives up, hint or not.
     */
    final class Builder {

        /** The longest schedule entry or hint cap accepted; keeps millisecond arithmetic exact. */
        static final Duration LONGEST = Duration.ofDays(365);

        private List<Duration> schedule = ScheduledRetryPolicy.DEFAULT_SCHEDULE;
        private int maxAttempts = ScheduledRetryPolicy.DEFAULT_MAX_ATTEMPTS;
        private double jitter = ScheduledRetryPolicy.DEFAULT_JITTER;
        private Duration maxHint = ScheduledRetryPolicy.DEFAULT_MAX_HINT;

        Builder() {
        }

        /**
         * The delays after the first, second, … failed attempt; not empty, each 0 .. 365 days.
         *
         * @param delays the delay before each retry, in order; the last repeats when attempts remain
         * @return this builder
         */
        public Builder schedule(List<Duration> delays) {
            var copy = List.copyOf(delays);
            if (copy.isEmpty()) {
                throw new IllegalArgumentException("schedule must not be empty");
            }
            copy.forEach(delay -> requireWithinRange(delay, "schedule entry"));
            this.schedule = copy;
            return this;
        }

        /**
         * The total number of attempts, the first included; at least 1 (1 means never retry).
         *
         * @param attempts the most attempts per delivery, at least 1
         * @return this builder
         */
        public Builder maxAttempts(int attempts) {
            if (attempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1: " + attempts);
            }
            this.maxAttempts = attempts;
            return this;
        }

        /**
         * The relative spread of each delay, in {@code [0, 1)}; 0 means the schedule exactly.
         *
         * @param fraction the jitter, at least 0 and below 1
         * @return this builder
         */
        public Builder jitter(double fraction) {
            if (!(fraction >= 0 && fraction < 1)) {
                throw new IllegalArgumentException("jitter must be in [0, 1): " + fraction);
            }
            this.jitter = fraction;
            return this;
        }

        /**
         * The longest retry-after hint honoured, 0 .. 365 days; a longer hint counts as this.
         *
         * @param cap the longest retry-after a sink may ask for
         * @return this builder
         */
        public Builder maxHint(Duration cap) {
            this.maxHint = requireWithinRange(cap, "maxHint");
            return this;
        }

        /**
         * The policy.
         *
         * @return the policy with this builder's values
         */
        public RetryPolicy build() {
            return new ScheduledRetryPolicy(schedule, maxAttempts, jitter, maxHint);
        }

        private static Duration requireWithinRange(Duration duration, String what) {
            Objects.requireNonNull(duration, what);
            if (duration.isNegative() || duration.compareTo(LONGEST) > 0) {
                throw new IllegalArgumentException(what + " must be within 0 .. " + LONGEST + ": " + duration);
            }
            return duration;
        }
    }
}
