package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.Prefixes;
import io.ankusa.store.Durability;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.HeldSyncStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The drain path: a claim and its settle are unsynced commits that a synced commit after
 * the settle (an empty one: a log sync, outside the tenants' stripes) hardens before the settle completes,
 * and a started pipeline claims at most half its slots per tick, so that the next tick claims while
 * the rows of the tick before are still being settled.
 */
class DrainPipeliningTest {

    @TempDir
    Path dir;

    private static QueueUnderTest open(String backend, Path dir, AtomicReference<HeldSyncStore> store) {
        return QueueUnderTest.open(backend, dir, b -> b, s -> {
            store.set(new HeldSyncStore(s));
            return store.get();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aClaimAndItsSettleCommitUnsyncedAndASyncedCommitAfterTheSettleHardensBoth(String backend) throws Exception {
        AtomicReference<HeldSyncStore> store = new AtomicReference<>();
        try (QueueUnderTest q = open(backend, dir, store)) {
            for (int i = 0; i < 3; i++) {
                q.ingest(QueueUnderTest.hook("h" + i, "t" + i, 0));
            }
            int before = store.get().commits().size();
            try (Pipeline pipeline = Pipeline.builder(q.queue(),
                    d -> CompletableFuture.completedFuture(SinkOutcome.delivered())).manual()) {
                TickReport report = pipeline.tick().toCompletableFuture().get(60, TimeUnit.SECONDS);
                assertThat(report.delivered()).isEqualTo(3);
            }
            List<HeldSyncStore.Commit> commits = store.get().commits().subList(before, store.get().commits().size());
            int claim = indexOf(commits, c -> c.puts(ColumnFamilies.INDEX, Prefixes.INFLIGHT));
            // The settle writes the attempts' history (a delivered hook goes in it, with no cleared marker).
            int settle = indexOf(commits, c -> c.puts(ColumnFamilies.INDEX, Prefixes.ATTEMPTS));
            assertThat(claim).as("the claim commit").isNotNegative();
            assertThat(commits.get(claim).durability()).as("the claim's durability").isEqualTo(Durability.ASYNC);
            assertThat(settle).as("the settle commit comes after the claim").isGreaterThan(claim);
            assertThat(commits.get(settle).durability()).as("the settle's durability").isEqualTo(Durability.ASYNC);
            assertThat(commits.subList(settle + 1, commits.size())).as("after the settle")
                    .anySatisfy(c -> assertThat(c.durability()).as("a synced commit").isEqualTo(Durability.SYNC));
            QueueStats stats = q.queue().stats();
            assertThat(stats.pending() + stats.inflight() + stats.bytes()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aStartedPipelineClaimsHalfItsSlotsPerTickAndTicksAgainBeforeTheRowsSettle(String backend) throws Exception {
        AtomicReference<HeldSyncStore> store = new AtomicReference<>();
        HoldingSink sink = new HoldingSink();
        try (QueueUnderTest q = open(backend, dir, store)) {
            for (int i = 0; i < 20; i++) {
                q.ingest(QueueUnderTest.hook("h" + i, "a", 0));
            }
            int before = store.get().commits().size();
            Pipeline pipeline = Pipeline.builder(q.queue(), sink).concurrency(8).manual();
            try {
                pipeline.start();
                // Two ticks of 4 while no row of the first has been answered, let alone settled.
                sink.awaitSeen(8);
                List<HeldSyncStore.Commit> claims = store.get().commits().subList(before, store.get().commits().size())
                        .stream().filter(c -> c.puts(ColumnFamilies.INDEX, Prefixes.INFLIGHT)).toList();
                assertThat(claims).as("claim commits while nothing settled").hasSize(2)
                        .allSatisfy(c -> assertThat(c.putsInto(ColumnFamilies.INDEX)).as("rows claimed").isEqualTo(4));
                assertThat(q.queue().stats().inflight()).isEqualTo(8);
                sink.release();
                sink.awaitSeen(20);
            } finally {
                pipeline.close();
            }
            QueueStats stats = q.queue().stats();
            assertThat(stats.pending() + stats.inflight() + stats.bytes()).as("all 20 delivered and settled").isZero();
        }
    }

    private static int indexOf(List<HeldSyncStore.Commit> commits, java.util.function.Predicate<HeldSyncStore.Commit> p) {
        for (int i = 0; i < commits.size(); i++) {
            if (p.test(commits.get(i))) {
                return i;
            }
        }
        return -1;
    }

    /** Holds every attempt unanswered until {@link #release()}, then answers "delivered" at once. */
    private static final class HoldingSink implements io.ankusa.dispatch.sink.Sink {

        private final List<CompletableFuture<SinkOutcome>> held = new ArrayList<>();
        private int seen;
        private boolean holding = true;

        @Override
        public synchronized CompletionStage<SinkOutcome> deliver(Delivery delivery) {
            seen++;
            notifyAll();
            if (!holding) {
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }
            CompletableFuture<SinkOutcome> outcome = new CompletableFuture<>();
            held.add(outcome);
            return outcome;
        }

        synchronized void awaitSeen(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (seen < n) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("the sink saw " + seen + " attempts, not " + n);
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }

        void release() {
            List<CompletableFuture<SinkOutcome>> answered;
            synchronized (this) {
                holding = false;
                answered = List.copyOf(held);
            }
            answered.forEach(o -> o.complete(SinkOutcome.delivered()));
        }
    }
}
