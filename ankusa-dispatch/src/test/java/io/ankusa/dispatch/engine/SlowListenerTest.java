package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.events.AttemptFinished;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.IngestCommitted;
import io.ankusa.api.events.QueueListener;
import io.ankusa.api.events.TickFinished;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.tests.dispatch.DispatchFixture;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A listener that blocks in every call slows neither ingest nor delivery: its events beyond its
 * hand-off's capacity are dropped, counted, and reported to it once it catches up.
 */
class SlowListenerTest {

    private static final int HOOKS = 40;
    private static final int CAPACITY = 4;

    @TempDir
    Path dir;

    /** Blocks every event call until released; counts what it is told was dropped. */
    private static final class BlockedListener implements QueueListener {
        final CountDownLatch release = new CountDownLatch(1);
        private long droppedReported;

        private void block() {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void onIngestCommitted(IngestCommitted event) {
            block();
        }

        @Override
        public void onAttemptFinished(AttemptFinished event) {
            block();
        }

        @Override
        public void onSettled(DeliverySettled event) {
            block();
        }

        @Override
        public void onTick(TickFinished event) {
            block();
        }

        @Override
        public synchronized void onEventsDropped(long count) {
            droppedReported += count;
            notifyAll();
        }

        synchronized void awaitReported(long total) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (droppedReported < total) {
                long left = deadline - System.nanoTime();
                assertThat(left).as("drops reported to the listener: %d of %d", droppedReported, total).isPositive();
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            assertThat(droppedReported).isEqualTo(total);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aBlockedListenerStallsNothingAndItsDropsAreCounted(String backend) throws Exception {
        BlockedListener blocked = new BlockedListener();
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.listener(blocked).eventCapacity(CAPACITY))) {
            Pipeline p = f.pipeline(d -> CompletableFuture.completedFuture(SinkOutcome.delivered()),
                    b -> b.listener(blocked).eventCapacity(CAPACITY));
            for (int i = 0; i < HOOKS; i++) {
                // One batch per hook (each ingest waits for its receipt): one event each.
                f.ingest("h-" + i, "t" + (i % 3), 0);
            }
            TickReport tick = DispatchFixture.await(p.tick());

            assertThat(tick.delivered()).as("every row delivered while the listener is blocked").isEqualTo(HOOKS);
            assertThat(f.queue().pendingForTenant("t0").pending()).isZero();
            // At most one event in the listener's hands and CAPACITY waiting; the rest were dropped.
            assertThat(f.queue().eventsDropped()).isBetween((long) HOOKS - CAPACITY - 1, (long) HOOKS - CAPACITY);
            // HOOKS attempts + HOOKS settlements + 1 tick on the pipeline's side.
            assertThat(p.eventsDropped()).isBetween(2L * HOOKS + 1 - CAPACITY - 1, 2L * HOOKS + 1 - CAPACITY);

            blocked.release.countDown();
            long queueDropped = f.queue().eventsDropped();
            long pipelineDropped = p.eventsDropped();
            blocked.awaitReported(queueDropped + pipelineDropped);
            p.close();
        }
    }

    /** Counts ingest commits and lets a test wait for a count. */
    private static final class CountingListener implements QueueListener {
        private long committed;

        @Override
        public synchronized void onIngestCommitted(IngestCommitted event) {
            committed++;
            notifyAll();
        }

        synchronized void awaitCommitted(long total) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (committed < total) {
                long left = deadline - System.nanoTime();
                assertThat(left).as("ingest events received: %d of %d", committed, total).isPositive();
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
    }

    /** The capacity bounds what waits in the hand-off at once, not how many events a listener ever gets. */
    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aListenerThatKeepsUpReceivesMoreEventsThanItsCapacity(String backend) throws Exception {
        CountingListener counting = new CountingListener();
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.listener(counting).eventCapacity(CAPACITY))) {
            for (int i = 0; i < HOOKS; i++) {
                f.ingest("h-" + i, "t" + (i % 3), 0);
                // Each hook is its own batch and event; the listener takes it before the next is sent.
                counting.awaitCommitted(i + 1);
            }
            assertThat(f.queue().eventsDropped()).isZero();
        }
    }
}
