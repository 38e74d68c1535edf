package io.ankusa.dispatch.sink;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/** The {@link RetryPolicy} a {@link RetryPolicy.Builder} builds: a delay schedule with jitter. */
final class ScheduledRetryPolicy implements RetryPolicy {

    /** The Standard Webhooks specification's example schedule: about three days from first to last attempt. */
    static final List<Duration> DEFAULT_SCHEDULE = List.of(
            Duration.ofSeconds(5),
            Duration.ofMinutes(5),
            Duration.ofMinutes(30),
            Duration.ofHours(2),
            Duration.ofHours(5),
            Duration.ofHours(10),
            Duration.ofHours(14),
            Duration.ofHours(20),
            Duration.ofHours(24));
    static final int DEFAULT_MAX_ATTEMPTS = 10;
    static final double DEFAULT_JITTER = 0.2;
    static final Duration DEFAULT_MAX_HINT = Duration.ofHours(1);

    static final ScheduledRetryPolicy DEFAULTS =
            new ScheduledRetryPolicy(DEFAULT_SCHEDULE, DEFAULT_MAX_ATTEMPTS, DEFAULT_JITTER, DEFAULT_MAX_HINT);

    private final long[] scheduleMillis;
    private final List<Duration> schedule;
    private final int maxAttempts;
    private final double jitter;
    private final Duration maxHint;

    ScheduledRetryPolicy(List<Duration> schedule, int maxAttempts, double jitter, Duration maxHint) {
        this.schedule = List.copyOf(schedule);
        this.scheduleMillis = this.schedule.stream().mapToLong(Duration::toMillis).toArray();
        this.maxAttempts = maxAttempts;
        this.jitter = jitter;
        this.maxHint = maxHint;
    }

    @Override
    public RetryDecision decide(int failedAttempt, SinkOutcome.Retry failure, RandomGenerator random) {
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(random, "random");
        if (failedAttempt < 1) {
            throw new IllegalArgumentException("attempts are 1-based: " + failedAttempt);
        }
        if (failedAttempt >= maxAttempts) {
            return RetryDecision.giveUp("attempt " + failedAttempt + " of " + maxAttempts
                    + " failed, no attempt left: " + failure.reason());
        }
        long base = scheduleMillis[Math.min(failedAttempt - 1, scheduleMillis.length - 1)];
        // One draw per decision whatever the configuration, so a seed replays the same way.
        double factor = 1 + jitter * (2 * random.nextDouble() - 1);
        long delay = Math.round(base * factor);
        long floor = failure.after().map(this::cappedHintMillis).orElse(0L);
        return RetryDecision.retryAfter(Duration.ofMillis(Math.max(delay, floor)));
    }

    /** The hint in whole milliseconds rounded up ("not before" stays true), at most {@code maxHint}. */
    private long cappedHintMillis(Duration hint) {
        if (hint.compareTo(maxHint) >= 0) {
            return maxHint.toMillis();
        }
        long millis = hint.toMillis();
        return hint.minusMillis(millis).isZero() ? millis : millis + 1;
    }

    @Override
    public String toString() {
        return "ScheduledRetryPolicy[schedule=" + schedule + ", maxAttempts=" + maxAttempts
                + ", jitter=" + jitter + ", maxHint=" + maxHint + "]";
    }
}
