package io.ankusa.dispatch;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How one delivery attempt ended: {@link Delivered}, {@link Retry} (maybe after a hint) or
 * {@link Dead} (a permanent failure: no further attempt).
 *
 * <p>A retry is a request, not a promise: the {@link RetryPolicy} decides when the next attempt
 * happens and whether there is one.
 */
public sealed interface SinkOutcome {

    /** The sink took the hook. */
    static Delivered delivered() {
        return Delivered.INSTANCE;
    }

    /** The attempt failed and another may succeed; the retry policy picks the time. */
    static Retry retry(String reason) {
        return new Retry(Optional.empty(), reason);
    }

    /** The attempt failed and the sink asked not to be tried again before {@code after}. */
    static Retry retryAfter(Duration after, String reason) {
        return new Retry(Optional.of(after), reason);
    }

    /** The attempt failed for good: the delivery goes to the dead letters. */
    static Dead dead(String reason) {
        return new Dead(reason);
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

        /** Validates: the hint, when present, is not negative. */
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

        /** Validates. */
        public Dead {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
