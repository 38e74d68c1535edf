package io.ankusa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.tests.dispatch.DispatchFixture;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Pipeline.Builder.claimGate}: a tick the gate refuses claims nothing and starts no attempt;
 * the tick loop does not tick while the gate is closed and says so in its health, and claims again
 * once it opens.
 */
class ClaimGateTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTickTheGateRefusesClaimsNothing(String backend) {
        AtomicBoolean open = new AtomicBoolean(false);
        AtomicInteger attempts = new AtomicInteger();
        Sink sink = d -> {
            attempts.incrementAndGet();
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        };
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            for (int i = 0; i < 5; i++) {
                f.ingest("h" + i, "t" + (i % 2), 0);
            }
            try (Pipeline pipeline = f.pipeline(sink, b -> b.claimGate(open::get))) {
                TickReport refused = DispatchFixture.await(pipeline.tick());
                assertThat(refused.claimed()).isZero();
                assertThat(refused.tenantsVisited()).isZero();
                assertThat(attempts.get()).as("attempts started behind a closed gate").isZero();
                assertThat(f.queue().stats().pending()).isEqualTo(5);

                open.set(true);
                TickReport claimed = DispatchFixture.await(pipeline.tick());
                assertThat(claimed.claimed()).isEqualTo(5);
                assertThat(claimed.delivered()).isEqualTo(5);
                assertThat(attempts.get()).isEqualTo(5);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theTickLoopHoldsWhileTheGateIsClosedAndClaimsOnceItOpens(String backend) {
        AtomicBoolean open = new AtomicBoolean(false);
        AtomicInteger gateReads = new AtomicInteger();
        AtomicInteger attempts = new AtomicInteger();
        Sink sink = d -> {
            attempts.incrementAndGet();
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        };
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            for (int i = 0; i < 3; i++) {
                f.ingest("h" + i, "t0", 0);
            }
            BooleanSupplier gate = () -> {
                gateReads.incrementAndGet();
                return open.get();
            };
            try (Pipeline pipeline = f.pipeline(sink, b -> b.claimGate(gate)).start()) {
                // The loop has looked at the closed gate a few times: it did not tick past it.
                awaitTrue(() -> gateReads.get() >= 5);
                assertThat(attempts.get()).as("attempts started behind a closed gate").isZero();
                assertThat(pipeline.dispatchHealth().ticking()).as("a loop held by its gate is not ticking").isFalse();

                open.set(true);
                awaitTrue(() -> f.queue().stats().pending() + f.queue().stats().inflight() == 0);
                assertThat(attempts.get()).isEqualTo(3);
                assertThat(pipeline.dispatchHealth().ticking()).isTrue();
            }
        }
    }

    /** Polls {@code condition} every 10 ms, up to a generous deadline that bounds a hang. */
    private static void awaitTrue(BooleanSupplier condition) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met within 60 s").isLessThan(end);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}
