package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.dispatch.DeadLetterFilter;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.ReplayJob;
import io.ankusa.dispatch.ReplayProgress;
import io.ankusa.dispatch.Replayer;
import io.ankusa.testkit.ScriptedSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Bulk replay by filter in bounded chunks: progress, the result, cancel, resumption, and dispatch beside it. */
class ReplayJobTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aJobReplaysTheMatchingLettersInChunksAndReportsItsProgress(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            DeadLetters.make(f, DeadLetters.hooks("a", 600, "acme", "web"), id -> "HTTP 410");
            DeadLetters.make(f, DeadLetters.hooks("g", 10, "globex", "web"), id -> "HTTP 410");
            ReplayJob job = Replayer.of(f.queue()).job(DeadLetterFilter.all().tenant("acme"));
            assertThat(job.progress().state()).isEqualTo(ReplayProgress.State.PENDING);

            List<ReplayProgress> chunks = new ArrayList<>();
            ReplayProgress result = job.run(chunks::add);

            assertThat(result.state()).isEqualTo(ReplayProgress.State.DONE);
            assertThat(result.replayed()).isEqualTo(600);
            assertThat(result.examined()).isEqualTo(600);
            assertThat(result.skipped()).isZero();
            assertThat(result.failed()).isZero();
            assertThat(result.resumeFrom()).isEmpty();
            assertThat(chunks).extracting(ReplayProgress::replayed).containsExactly(256L, 512L, 600L);
            assertThat(chunks).extracting(ReplayProgress::state).containsOnly(ReplayProgress.State.RUNNING);
            assertThat(f.queue().deadForTenant("acme").dead()).isZero();
            assertThat(f.queue().pendingForTenant("acme").pending()).isEqualTo(600);
            assertThat(f.queue().deadForTenant("globex").dead()).as("another tenant untouched").isEqualTo(10);
            assertThat(f.queue().auditTrail(10)).filteredOn(e -> e.action() == AuditAction.REPLAY)
                    .extracting(AuditEntry::tenantId).as("one audited replay per chunk").containsOnly("acme").hasSize(3);
            assertThatThrownBy(job::run).isInstanceOf(IllegalStateException.class);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void cancelStopsTheJobBetweenChunksAndANewJobResumesFromItsCursor(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            DeadLetters.make(f, DeadLetters.hooks("a", 700, "acme", "web"), id -> "HTTP 410");
            Replayer replayer = Replayer.of(f.queue());
            ReplayJob job = replayer.job(DeadLetterFilter.all());

            ReplayProgress cancelled = job.run(p -> job.cancel());

            assertThat(cancelled.state()).isEqualTo(ReplayProgress.State.CANCELLED);
            assertThat(cancelled.replayed()).as("the chunk under way finished, no other began").isEqualTo(256);
            assertThat(f.queue().stats().dead()).isEqualTo(700 - 256);
            assertThat(cancelled.resumeFrom()).isPresent();

            ReplayProgress resumed = replayer.job(DeadLetterFilter.all(), cancelled.resumeFrom().get()).run();
            assertThat(resumed.state()).isEqualTo(ReplayProgress.State.DONE);
            assertThat(resumed.replayed()).isEqualTo(700 - 256);
            assertThat(resumed.skipped()).isZero();
            assertThat(f.queue().stats().dead()).isZero();
            assertThat(f.queue().stats().pending()).isEqualTo(700);

            ReplayJob never = replayer.job(DeadLetterFilter.all());
            never.cancel();
            assertThat(never.run().state()).isEqualTo(ReplayProgress.State.CANCELLED);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aBulkReplayOfTenThousandLettersDoesNotStallAnotherTenantsDelivery(String backend) throws Exception {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            int bulk = 10_000;
            DeadLetters.make(f, DeadLetters.hooks("b", bulk, "bulk", "web"), id -> "HTTP 410");
            ScriptedSink sink = ScriptedSink.delivering();
            List<Long> liveDeliveredAt = new ArrayList<>();
            Pipeline pipeline = Pipeline.builder(f.queue(), sink).tickInterval(Duration.ofMillis(5)).start();
            try {
                ReplayJob job = Replayer.of(f.queue()).job(DeadLetterFilter.all().tenant("bulk"));
                ReplayProgress result = job.run(progress -> {
                    if (progress.replayed() % 2048 != 0) {
                        return;
                    }
                    // Between two chunks of a job still under way, a hook of another tenant is delivered.
                    String id = "live-" + progress.replayed();
                    f.ingest(id, "live", 0);
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (!sink.hookIds().contains(id)) {
                        assertThat(System.nanoTime()).as(id + " delivered while the job runs").isLessThan(deadline);
                        Thread.onSpinWait();
                    }
                    liveDeliveredAt.add(progress.replayed());
                    assertThat(job.progress().state()).isEqualTo(ReplayProgress.State.RUNNING);
                });
                assertThat(result.state()).isEqualTo(ReplayProgress.State.DONE);
                assertThat(result.replayed()).isEqualTo(bulk);
            } finally {
                pipeline.close();
            }
            assertThat(liveDeliveredAt).as("a live delivery after every 8 chunks").containsExactly(2048L, 4096L, 6144L,
                    8192L);
        }
    }
}
