package io.ankusa.tests.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.DueStamps;
import io.ankusa.queue.ledger.QueueClock;
import io.ankusa.testkit.property.Action;
import io.ankusa.testkit.property.ActionSequenceCheck;
import io.ankusa.testkit.property.PropertyConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stamps of due rows being written ({@link DueStamps}), alone, on a {@link SteppingClock}: the
 * marker cleanup's horizon is never after a stamp held, and no stamp is taken before a horizon
 * already read, whatever the order of holds, releases, readings and clock steps. Both together
 * are what keeps a crash between the cleanup's deletes and its check from hiding a due row
 * (docs/storage.md, "The active index").
 */
class DueStampsTest {

    private static final long T = QueueUnderTest.EPOCH;

    /** The stamps, the stamps open, and the latest horizon read. */
    private static final class Model {
        final SteppingClock wall = new SteppingClock(T);
        final DueStamps stamps;
        final List<DueStamps.Held> open = new ArrayList<>();
        final boolean wallOnly;
        long lastHorizon = Long.MIN_VALUE;

        Model(boolean wallOnly) {
            this.wallOnly = wallOnly;
            QueueClock clock = wallOnly ? QueueClock.wallOnly(wall) : QueueClock.of(wall, wall::nanos, Long.MIN_VALUE);
            this.stamps = new DueStamps(clock);
        }

        void hold() {
            DueStamps.Held held = stamps.hold();
            assertThat(held.millis()).as("a stamp is never before a horizon already read").isGreaterThanOrEqualTo(lastHorizon);
            open.add(held);
        }

        void release(int k) {
            if (!open.isEmpty()) {
                open.remove(k % open.size()).close();
            }
        }

        void horizon() {
            long horizon = stamps.horizon();
            for (DueStamps.Held held : open) {
                assertThat(horizon).as("the horizon is at or before every stamp held").isLessThanOrEqualTo(held.millis());
            }
            assertThat(horizon).as("the horizon is at or before the clock's now").isLessThanOrEqualTo(stamps.clock().millis());
            if (!wallOnly) {
                // A wall-only clock steps back, and its horizon with it: fewer deletes, never more.
                assertThat(horizon).as("the horizon never goes back").isGreaterThanOrEqualTo(lastHorizon);
            }
            lastHorizon = Math.max(lastHorizon, horizon);
        }
    }

    @ParameterizedTest(name = "wall only: {0}")
    @ValueSource(booleans = {false, true})
    void theHorizonIsAtOrBeforeEveryStampHeldAndNoStampIsTakenBeforeAHorizonRead(boolean wallOnly) {
        ActionSequenceCheck.<Model>named("due stamps [wall only " + wallOnly + "]")
                .config(PropertyConfig.of(50, 60))
                .subject(() -> new Model(wallOnly))
                .action(4, r -> Action.of("hold", Model::hold))
                .action(3, r -> {
                    int k = r.nextInt(8);
                    return Action.of("release #" + k, m -> m.release(k));
                })
                .action(4, r -> Action.of("horizon", Model::horizon))
                .action(3, r -> {
                    long ms = r.nextInt(2_500);
                    return Action.of("pass " + ms + " ms", m -> m.wall.pass(ms));
                })
                .action(1, r -> {
                    long ms = r.nextInt(4_000) - 3_000;
                    return Action.of("step the wall " + ms + " ms", m -> m.wall.step(ms));
                })
                .invariant(m -> assertThat(m.stamps.heldCount()).isEqualTo(m.open.size()))
                .run();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRetryDueBeforeItsSettlesStampIsDueAtTheStampAndTheSettleReleasesIt(String backend, @TempDir Path dir) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("h", "t", 0));
            long ord = q.ord("t").orElseThrow();
            DeliveryLedger ledger = q.ledger();
            ClaimedDelivery claimed = ledger.claim(ord,
                    ledger.dueForTenant(ord, q.clock().millis(), 0, 1, Long.MAX_VALUE)).claimed().get(0);
            q.clock().advance(5_000);
            long settledAt = q.clock().millis();

            // The retry's "now" was read before the settle took its stamp (5 s before, here).
            ledger.retry(claimed, settledAt - 5_000, "HTTP 503");

            assertThat(ledger.dueForTenant(ord, settledAt, 0, 10, Long.MAX_VALUE))
                    .extracting(DueRow::at).containsExactly(settledAt);
            assertThat(ledger.dueStamps().heldCount()).isZero();
            IndexFold fold = IndexFold.of(q.store());
            fold.assertCountersMatch(q.store());
            fold.assertEveryDueRowHasAMarker();
        }
    }

    @Test
    void aReleasedStampNoLongerHoldsTheHorizonAndAStampClosedTwiceIsReleasedOnce() {
        Model m = new Model(false);
        DueStamps.Held first = m.stamps.hold();
        m.wall.pass(1_500);
        DueStamps.Held second = m.stamps.hold();
        m.wall.pass(1_500);
        assertThat(m.stamps.horizon()).isEqualTo(first.millis());

        first.close();
        first.close();
        assertThat(m.stamps.heldCount()).isEqualTo(1);
        assertThat(m.stamps.horizon()).isEqualTo(second.millis());
        second.close();
        assertThat(m.stamps.horizon()).as("nothing held: now").isEqualTo(T + 3_000);
        assertThat(second.atLeast(T)).as("a due time before the stamp is raised to it").isEqualTo(second.millis());
        assertThat(second.atLeast(T + 60_000)).isEqualTo(T + 60_000);
    }
}
