package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.ForwardingStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The settler writes its next batch while the last one is synced, and
 * still reports a settle only once a sync after its write returned.
 */
class SettleOverlapTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aSettleBatchIsWrittenWhileTheOneBeforeIsSyncedAndNeitherCompletesBeforeItsSync(String backend) throws Exception {
        AtomicReference<HeldSync> store = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            store.set(new HeldSync(s));
            return store.get();
        })) {
            q.ingest(QueueUnderTest.hook("h1", "a", 0));
            q.ingest(QueueUnderTest.hook("h2", "a", 0));
            List<CompletableFuture<SinkOutcome>> outcomes = new ArrayList<>();
            Pipeline pipeline = Pipeline.builder(q.queue(), d -> {
                CompletableFuture<SinkOutcome> outcome = new CompletableFuture<>();
                synchronized (outcomes) {
                    outcomes.add(outcome);
                }
                return outcome;
            }).rowsPerTick(1).manual();
            try {
                CompletableFuture<TickReport> first = pipeline.tick().toCompletableFuture();
                CompletableFuture<TickReport> second = pipeline.tick().toCompletableFuture();
                synchronized (outcomes) {
                    assertThat(outcomes).as("one row claimed by each tick").hasSize(2);
                }
                HeldSync held = store.get();
                held.arm();
                outcomes.get(0).complete(SinkOutcome.delivered());
                assertThat(held.syncEntered.await(BOUND.toSeconds(), TimeUnit.SECONDS))
                        .as("the first settle's sync started").isTrue();
                assertThat(first).as("a settle is not reported before its sync returned").isNotDone();

                outcomes.get(1).complete(SinkOutcome.delivered());
                assertThat(held.writtenDuringSync.await(BOUND.toSeconds(), TimeUnit.SECONDS))
                        .as("the second settle is written while the first one's sync is held").isTrue();
                assertThat(second).as("written, not yet synced: not reported").isNotDone();
                assertThat(first).isNotDone();

                held.release();
                assertThat(first.get(BOUND.toSeconds(), TimeUnit.SECONDS).delivered()).isEqualTo(1);
                assertThat(second.get(BOUND.toSeconds(), TimeUnit.SECONDS).delivered()).isEqualTo(1);
                assertThat(q.queue().stats().pending()).isZero();
                assertThat(q.queue().stats().inflight()).isZero();
            } finally {
                store.get().release();
                assertTimeoutPreemptively(BOUND, pipeline::close);
            }
        }
    }

    /**
     * Once armed, holds the next empty synced commit (a settle's sync) of a dispatch thread until
     * {@link #release()}, and notes a non-empty commit made while it is held.
     */
    private static final class HeldSync extends ForwardingStore {

        final CountDownLatch syncEntered = new CountDownLatch(1);
        final CountDownLatch writtenDuringSync = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile boolean armed;
        private volatile boolean holding;

        HeldSync(Store delegate) {
            super(delegate);
        }

        void arm() {
            armed = true;
        }

        void release() {
            released.countDown();
        }

        @Override
        public void commit(WriteBatch batch, Durability durability) {
            if (armed && batch.isEmpty() && durability == Durability.SYNC
                    && Thread.currentThread().getName().startsWith("ankusa-dispatch-settle")) {
                armed = false;
                holding = true;
                syncEntered.countDown();
                try {
                    if (!released.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
                        throw new AssertionError("never released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                } finally {
                    holding = false;
                }
            } else if (holding && !batch.isEmpty()) {
                super.commit(batch, durability);
                writtenDuringSync.countDown();
                return;
            }
            super.commit(batch, durability);
        }
    }
}
