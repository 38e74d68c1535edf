package io.ankusa.dispatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The retry policy's properties, each checked over many seeds. A failure message names the seed;
 * {@code new SplittableRandom(seed)} replays it.
 */
class RetryPolicyTest {

    private static final int SEEDS = 2_000;
    /** The Standard Webhooks specification's example schedule (docs/delivery.md). */
    private static final List<Duration> DEFAULT_SCHEDULE = List.of(
            Duration.ofSeconds(5), Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2),
            Duration.ofHours(5), Duration.ofHours(10), Duration.ofHours(14), Duration.ofHours(20),
            Duration.ofHours(24));
    private static final SinkOutcome.Retry NO_HINT = SinkOutcome.retry("http 500");

    private static Duration delay(RetryDecision decision) {
        assertThat(decision).isInstanceOf(RetryDecision.RetryAfter.class);
        return ((RetryDecision.RetryAfter) decision).delay();
    }

    @Test
    void theDefaultDelaysStayWithinTwentyPercentOfTheSchedule() {
        RetryPolicy policy = RetryPolicy.defaults();
        for (long seed = 0; seed < SEEDS; seed++) {
            var random = new SplittableRandom(seed);
            for (int attempt = 1; attempt <= 9; attempt++) {
                long base = DEFAULT_SCHEDULE.get(attempt - 1).toMillis();
                long delay = delay(policy.decide(attempt, NO_HINT, random)).toMillis();
                assertThat(delay).as("seed %d, attempt %d", seed, attempt)
                        .isBetween((long) Math.floor(base * 0.8), (long) Math.ceil(base * 1.2));
            }
        }
    }

    @Test
    void theDefaultScheduleSpansAboutThreeDaysAndItsFirstRetryWaitsAboutFiveSeconds() {
        RetryPolicy policy = RetryPolicy.defaults();
        long scheduled = DEFAULT_SCHEDULE.stream().mapToLong(Duration::toMillis).sum();
        assertThat(Duration.ofMillis(scheduled)).isEqualTo(Duration.ofDays(3).plusHours(3).plusMinutes(35).plusSeconds(5));
        for (long seed = 0; seed < SEEDS; seed++) {
            var random = new SplittableRandom(seed);
            Duration first = delay(policy.decide(1, NO_HINT, random));
            assertThat(first).as("seed %d", seed).isBetween(Duration.ofSeconds(4), Duration.ofSeconds(6));
            long total = first.toMillis();
            for (int attempt = 2; attempt <= 9; attempt++) {
                total += delay(policy.decide(attempt, NO_HINT, random)).toMillis();
            }
            assertThat(Duration.ofMillis(total)).as("seed %d", seed)
                    .isBetween(Duration.ofDays(2).plusHours(12), Duration.ofDays(4));
        }
    }

    @Test
    void theTenthFailureGivesUpWhateverTheHint() {
        RetryPolicy policy = RetryPolicy.defaults();
        var random = new SplittableRandom(1);
        for (int attempt : new int[] {10, 11, 1_000}) {
            for (SinkOutcome.Retry failure : List.of(NO_HINT, SinkOutcome.retryAfter(Duration.ZERO, "http 429"))) {
                RetryDecision decision = policy.decide(attempt, failure, random);
                assertThat(decision).isInstanceOf(RetryDecision.GiveUp.class);
                assertThat(((RetryDecision.GiveUp) decision).reason())
                        .contains("attempt " + attempt + " of 10").contains(failure.reason());
            }
        }
    }

    @Test
    void aHintIsAFloorCappedAtTheLargestHonouredHint() {
        RetryPolicy policy = RetryPolicy.defaults();
        long maxHint = Duration.ofHours(1).toMillis();
        for (long seed = 0; seed < SEEDS; seed++) {
            var draws = new SplittableRandom(~seed);
            int attempt = 1 + draws.nextInt(9);
            Duration hint = Duration.ofMillis(draws.nextLong(Duration.ofHours(3).toMillis()));

            Duration without = delay(policy.decide(attempt, NO_HINT, new SplittableRandom(seed)));
            Duration with = delay(policy.decide(attempt, SinkOutcome.retryAfter(hint, "http 429"),
                    new SplittableRandom(seed)));

            long floor = Math.min(hint.toMillis(), maxHint);
            assertThat(with.toMillis()).as("seed %d, attempt %d, hint %s", seed, attempt, hint)
                    .isGreaterThanOrEqualTo(floor)
                    .isEqualTo(Math.max(without.toMillis(), floor));
        }
    }

    @Test
    void aHintLongerThanTheCapNeverOverflows() {
        RetryPolicy policy = RetryPolicy.builder().jitter(0).maxHint(Duration.ofMinutes(10)).build();

        Duration delay = delay(policy.decide(1, SinkOutcome.retryAfter(Duration.ofSeconds(Long.MAX_VALUE), "429"),
                new SplittableRandom(0)));

        assertThat(delay).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void aHintIsRoundedUpToTheNextMillisecond() {
        RetryPolicy policy = RetryPolicy.builder().schedule(List.of(Duration.ZERO)).jitter(0).build();

        Duration delay = delay(policy.decide(1, SinkOutcome.retryAfter(Duration.ofNanos(1_500_000), "429"),
                new SplittableRandom(0)));

        assertThat(delay).isEqualTo(Duration.ofMillis(2));
    }

    @Test
    void aSeedReplaysTheSameDecisions() {
        RetryPolicy policy = RetryPolicy.defaults();
        for (long seed = 0; seed < 200; seed++) {
            assertThat(decisions(policy, seed)).as("seed %d", seed).isEqualTo(decisions(policy, seed));
        }
    }

    @Test
    void jitterSpreadsDelaysToBothSidesAndZeroJitterKeepsTheSchedule() {
        RetryPolicy jittered = RetryPolicy.defaults();
        RetryPolicy exact = RetryPolicy.builder().jitter(0).build();
        long smallest = Long.MAX_VALUE;
        long largest = Long.MIN_VALUE;
        for (long seed = 0; seed < SEEDS; seed++) {
            long delay = delay(jittered.decide(1, NO_HINT, new SplittableRandom(seed))).toMillis();
            smallest = Math.min(smallest, delay);
            largest = Math.max(largest, delay);
            assertThat(delay(exact.decide(1, NO_HINT, new SplittableRandom(seed)))).isEqualTo(Duration.ofSeconds(5));
        }
        // 2 000 uniform draws over ±1 s: both ends come within 0.05 s of their bound.
        assertThat(smallest).isLessThan(4_050);
        assertThat(largest).isGreaterThan(5_950);
    }

    @Test
    void aConfiguredScheduleRepeatsItsLastEntryAndStopsAtTheAttemptLimit() {
        RetryPolicy policy = RetryPolicy.builder()
                .schedule(List.of(Duration.ofSeconds(1), Duration.ofSeconds(7)))
                .maxAttempts(5)
                .jitter(0)
                .build();
        var random = new SplittableRandom(3);

        assertThat(delay(policy.decide(1, NO_HINT, random))).isEqualTo(Duration.ofSeconds(1));
        assertThat(delay(policy.decide(2, NO_HINT, random))).isEqualTo(Duration.ofSeconds(7));
        assertThat(delay(policy.decide(4, NO_HINT, random))).isEqualTo(Duration.ofSeconds(7));
        assertThat(policy.decide(5, NO_HINT, random)).isInstanceOf(RetryDecision.GiveUp.class);
    }

    @Test
    void oneAttemptMeansNoRetry() {
        RetryPolicy policy = RetryPolicy.builder().maxAttempts(1).build();

        assertThat(policy.decide(1, NO_HINT, new SplittableRandom(0))).isInstanceOf(RetryDecision.GiveUp.class);
    }

    @Test
    void theBuilderRefusesWhatCannotWork() {
        assertThatThrownBy(() -> RetryPolicy.builder().schedule(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.builder().schedule(List.of(Duration.ofSeconds(-1))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.builder().schedule(List.of(Duration.ofDays(366))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.builder().maxAttempts(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.builder().jitter(-0.1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.builder().jitter(1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.builder().jitter(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.builder().maxHint(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryPolicy.defaults().decide(0, NO_HINT, new SplittableRandom(0)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theDefaultsDescribeThemselves() {
        assertThat(RetryPolicy.defaults().toString()).contains("maxAttempts=10", "jitter=0.2", "maxHint=PT1H", "PT24H");
    }

    private static List<RetryDecision> decisions(RetryPolicy policy, long seed) {
        var random = new SplittableRandom(seed);
        var decisions = new ArrayList<RetryDecision>();
        for (int attempt = 1; attempt <= 10; attempt++) {
            decisions.add(policy.decide(attempt, NO_HINT, random));
        }
        return decisions;
    }
}
