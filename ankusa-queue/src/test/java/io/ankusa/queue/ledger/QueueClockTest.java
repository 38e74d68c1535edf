package io.ankusa.queue.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.tests.queue.MutableClock;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.SteppingClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The queue clock alone, on a {@link SteppingClock}: what a step does to "now" and to waits. */
class QueueClockTest {

    private static final long T = QueueUnderTest.EPOCH;
    private static final long HOUR = Duration.ofHours(1).toMillis();
    private static final long DAY = Duration.ofDays(1).toMillis();

    private final SteppingClock wall = new SteppingClock(T);

    @Test
    void aBackwardStepNeverGoesBackRunsAtHalfSpeedAndMeetsTheWallAfterTwiceTheStep() {
        QueueClock clock = QueueClock.of(wall, wall::nanos, Long.MIN_VALUE);
        wall.pass(1_000);
        assertThat(clock.millis()).isEqualTo(T + 1_000);

        wall.step(-HOUR);
        assertThat(clock.millis()).as("not back").isEqualTo(T + 1_000);
        assertThat(clock.aheadOfWall()).isEqualTo(HOUR);
        wall.pass(10_000);
        assertThat(clock.millis()).as("half speed").isEqualTo(T + 6_000);
        wall.pass(2 * HOUR - 10_000);
        assertThat(clock.millis()).as("caught up after twice the step").isEqualTo(T + 1_000 + HOUR);
        assertThat(clock.aheadOfWall()).isZero();
        wall.pass(1_000);
        assertThat(clock.millis()).as("the wall again").isEqualTo(wall.millis());
        assertThat(clock.waitedSince(T, clock.millis())).as("a step back takes no waiting away")
                .isEqualTo(clock.millis() - T);
    }

    @Test
    void aForwardStepIsFollowedAtOnceAndLeftOutOfWaits() {
        QueueClock clock = QueueClock.of(wall, wall::nanos, Long.MIN_VALUE);
        wall.pass(5_000);
        assertThat(clock.millis()).isEqualTo(T + 5_000);
        wall.step(DAY);
        long now = clock.millis();
        assertThat(now).as("due times follow the wall").isEqualTo(T + 5_000 + DAY);
        assertThat(clock.waitedSince(T, now)).as("due before the step").isEqualTo(5_000);
        assertThat(clock.waitedSince(T + HOUR, now)).as("jumped over: due since the step").isZero();
        assertThat(clock.waitedSince(now + 1, now)).as("not due yet").isZero();
        wall.pass(3_000);
        now = clock.millis();
        assertThat(clock.waitedSince(T, now)).isEqualTo(8_000);
        assertThat(clock.waitedSince(T + HOUR, now)).isEqualTo(3_000);
        assertThat(clock.waitedSince(now - 1_000, now)).as("due after the step").isEqualTo(1_000);

        wall.step(QueueClock.STEP_MILLIS);
        assertThat(clock.waitedSince(T, clock.millis())).as("a step of at most 1 s is time passing").isEqualTo(9_000);
    }

    @Test
    void aPersistedFloorAheadOfTheWallIsWhereTheClockStarts() {
        QueueClock clock = QueueClock.of(wall, wall::nanos, T + HOUR);
        assertThat(clock.millis()).isEqualTo(T + HOUR);
        assertThat(QueueClock.of(wall, wall::nanos, T - HOUR).millis()).as("a floor behind the wall: the wall")
                .isEqualTo(T);
    }

    @Test
    void overAHandMovedClockAForwardMoveIsTimePassingAndABackwardMoveIsAStep() {
        MutableClock hand = new MutableClock(T);
        QueueClock clock = QueueClock.over(hand, Long.MIN_VALUE);
        hand.advance(DAY);
        long now = clock.millis();
        assertThat(clock.waitedSince(T, now)).isEqualTo(DAY);
        hand.advance(-HOUR);
        assertThat(clock.millis()).isEqualTo(now);
        hand.advance(2_000);
        assertThat(clock.millis()).as("half speed while ahead").isEqualTo(now + 1_000);
    }
}
