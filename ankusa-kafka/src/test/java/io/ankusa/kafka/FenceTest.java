package io.ankusa.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The fence's decision on a hand-moved monotonic clock. */
class FenceTest {

    private static final Duration BOUND = Duration.ofSeconds(4);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Fence fence = new Fence(BOUND, nanos::get);

    private void pass(Duration time) {
        nanos.addAndGet(time.toNanos());
    }

    @Test
    void theGateClosesWhenTheBoundPassesSinceTheLastPollEvenBeforeACheck() {
        pass(BOUND.minusMillis(1));
        assertThat(fence.open()).isTrue();
        assertThat(fence.check()).isEqualTo(Fence.NOT_FENCED);
        pass(Duration.ofMillis(1));
        assertThat(fence.open()).as("closed at the bound, read from the clock").isFalse();
        assertThat(fence.fenced()).isTrue();
        assertThat(fence.held()).as("no check has run yet").isFalse();
    }

    @Test
    void aCheckAfterTheBoundFencesOnceAndReportsTheTimeSinceThePoll() {
        pass(BOUND.plusMillis(250));
        assertThat(fence.check()).isEqualTo(BOUND.plusMillis(250).toNanos());
        assertThat(fence.held()).isTrue();
        assertThat(fence.check()).as("already fenced: reported once").isEqualTo(Fence.NOT_FENCED);
        assertThat(fence.sinceRenewed()).isEqualTo(BOUND.plusMillis(250));
    }

    @Test
    void aPollAfterAFenceDoesNotOpenTheGateUntilTheFenceIsLifted() {
        pass(BOUND);
        fence.check();
        fence.renew();
        assertThat(fence.sinceRenewed()).isZero();
        assertThat(fence.open()).as("polled, ownership not confirmed").isFalse();
        assertThat(fence.lift()).isTrue();
        assertThat(fence.open()).isTrue();
        assertThat(fence.lift()).as("lifted already").isFalse();
    }

    @Test
    void pollsWithinTheBoundKeepTheGateOpen() {
        for (int i = 0; i < 10; i++) {
            pass(BOUND.minusMillis(1));
            assertThat(fence.check()).isEqualTo(Fence.NOT_FENCED);
            assertThat(fence.open()).isTrue();
            fence.renew();
        }
        assertThat(fence.held()).isFalse();
    }

    @Test
    void anUnliftedFenceKeepsTheGateClosedWhateverThePolls() {
        pass(BOUND.plusSeconds(1));
        fence.check();
        fence.renew();
        pass(Duration.ofMillis(10));
        fence.renew();
        assertThat(fence.open()).isFalse();
        assertThat(fence.fenced()).isTrue();
    }

    @Test
    void refusesABoundThatIsNotPositive() {
        assertThatThrownBy(() -> new Fence(Duration.ZERO, nanos::get)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
    }
}
