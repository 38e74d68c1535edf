package io.ankusa.queue.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Rate;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aFullBucketAdmitsItsBurstThenOneTokenPerInterval() {
        TokenBucket bucket = new TokenBucket(new Rate(10, 3), 0);
        assertThat(bucket.tryTake(1, 0)).isTrue();
        assertThat(bucket.tryTake(1, 0)).isTrue();
        assertThat(bucket.tryTake(1, 0)).isTrue();
        assertThat(bucket.tryTake(1, 0)).isFalse();
        assertThat(bucket.nanosUntil(1, 0)).isEqualTo(SECOND / 10);
        assertThat(bucket.tryTake(1, SECOND / 10 - 1)).isFalse();
        assertThat(bucket.tryTake(1, SECOND / 10)).isTrue();
    }

    @Test
    void availableCountsTheTokensTryTakeWouldGrant() {
        TokenBucket bucket = new TokenBucket(new Rate(10, 4), 0);
        assertThat(bucket.available(0)).isEqualTo(4);
        assertThat(bucket.tryTake(3, 0)).isTrue();
        assertThat(bucket.available(0)).isEqualTo(1);
        assertThat(bucket.available(SECOND / 10 - 1)).isEqualTo(1);
        assertThat(bucket.available(SECOND / 10)).isEqualTo(2);
        assertThat(bucket.tryTake(2, SECOND / 10)).isTrue();
        assertThat(bucket.available(SECOND / 10)).isZero();
        assertThat(bucket.available(3600 * SECOND)).isEqualTo(4);
        assertThat(new TokenBucket(io.ankusa.api.Rate.UNLIMITED, 0).available(0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void tokensNeverExceedTheBurst() {
        TokenBucket bucket = new TokenBucket(new Rate(100, 5), 0);
        assertThat(bucket.tryTake(5, 0)).isTrue();
        assertThat(bucket.tryTake(6, 3600 * SECOND)).isFalse();
        assertThat(bucket.tryTake(5, 3600 * SECOND)).isTrue();
    }

    @Test
    void admittedWorkOverALongRunFollowsTheRate() {
        TokenBucket bucket = new TokenBucket(new Rate(100, 1), 0);
        int admitted = 0;
        for (long t = 0; t <= 10 * SECOND; t += SECOND / 1000) {
            if (bucket.tryTake(1, t)) {
                admitted++;
            }
        }
        assertThat(admitted).isBetween(1000, 1001);
    }

    @Test
    void anUnlimitedBucketAdmitsEverythingAndNeverWaits() {
        TokenBucket bucket = new TokenBucket(Rate.UNLIMITED, 0);
        for (int i = 0; i < 10_000; i++) {
            assertThat(bucket.tryTake(1, 0)).isTrue();
        }
        assertThat(bucket.nanosUntil(1_000_000, 0)).isZero();
    }

    @Test
    void aRateChangeKeepsEarnedTokensAndGrantsNoFreshBurst() {
        TokenBucket bucket = new TokenBucket(new Rate(10, 10), 0);
        assertThat(bucket.tryTake(10, 0)).isTrue();
        bucket.rate(new Rate(1000, 1000), 0);
        assertThat(bucket.tryTake(1, 0)).isFalse();
        assertThat(bucket.tryTake(1, SECOND / 1000)).isTrue();
        bucket.rate(Rate.UNLIMITED, SECOND);
        assertThat(bucket.tryTake(1_000_000, SECOND)).isTrue();
        bucket.rate(new Rate(1, 2), 2 * SECOND);
        assertThat(bucket.tryTake(2, 2 * SECOND)).as("from unlimited a limit starts full").isTrue();
        assertThat(bucket.tryTake(1, 2 * SECOND)).isFalse();
    }
}
