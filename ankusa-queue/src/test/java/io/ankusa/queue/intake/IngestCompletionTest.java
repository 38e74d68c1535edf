package io.ankusa.queue.intake;

import static io.ankusa.tests.queue.QueueUnderTest.hook;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Receipt;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ingest futures complete off the writer thread: a caller's callback that
 * blocks does not stall other producers, and an application's executor is where callbacks run.
 *
 * <p>The order is forced, not timed: a chore parks the writer while the first hook is submitted
 * and its callback attached, so the callback always runs where the queue completes the future.
 */
class IngestCompletionTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aBlockingCallbackDoesNotStallOtherProducers(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            CountDownLatch writerParked = new CountDownLatch(1);
            CountDownLatch releaseWriter = new CountDownLatch(1);
            q.engine().writer().submitChore(() -> {
                writerParked.countDown();
                return awaitQuietly(releaseWriter);
            });
            assertThat(writerParked.await(60, TimeUnit.SECONDS)).isTrue();

            CountDownLatch callbackEntered = new CountDownLatch(1);
            CountDownLatch releaseCallback = new CountDownLatch(1);
            AtomicReference<String> callbackThread = new AtomicReference<>();
            CompletableFuture<Void> blocked = q.queue().ingest(hook("a-1", "a", 0)).thenAccept(receipt -> {
                callbackThread.set(Thread.currentThread().getName());
                callbackEntered.countDown();
                awaitQuietly(releaseCallback);
            });
            releaseWriter.countDown();
            assertThat(callbackEntered.await(60, TimeUnit.SECONDS)).as("the first callback runs").isTrue();

            try {
                Receipt other = q.queue().ingest(hook("b-1", "b", 0)).get(60, TimeUnit.SECONDS);
                assertThat(other.hookId()).isEqualTo("b-1");
                assertThat(blocked).isNotDone();
                assertThat(callbackThread.get()).startsWith("ankusa-ingest-completion-");
            } finally {
                releaseCallback.countDown();
            }
            blocked.get(60, TimeUnit.SECONDS);
        }
    }

    /**
     * The own pool completes receipts through a few drainers, not a thread per hook: a callback
     * that blocks while later receipts of its own batch still wait must not hold them (the
     * drainer running it hands the rest to another one first).
     */
    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aBlockingCallbackDoesNotHoldTheRestOfItsBatch(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            CountDownLatch writerParked = new CountDownLatch(1);
            CountDownLatch releaseWriter = new CountDownLatch(1);
            q.engine().writer().submitChore(() -> {
                writerParked.countDown();
                return awaitQuietly(releaseWriter);
            });
            assertThat(writerParked.await(60, TimeUnit.SECONDS)).isTrue();

            CountDownLatch callbackEntered = new CountDownLatch(1);
            CountDownLatch releaseCallback = new CountDownLatch(1);
            CompletableFuture<Void> blocked = q.queue().ingest(hook("a-1", "a", 0)).thenAccept(receipt -> {
                callbackEntered.countDown();
                awaitQuietly(releaseCallback);
            });
            // Queued behind a-1 while the writer is parked: one batch, completed in order after a-1.
            List<CompletableFuture<Receipt>> rest = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                rest.add(q.queue().ingest(hook("b-" + i, "b", 0)));
            }
            releaseWriter.countDown();
            assertThat(callbackEntered.await(60, TimeUnit.SECONDS)).as("the first callback runs").isTrue();
            try {
                CompletableFuture.allOf(rest.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                assertThat(rest).allSatisfy(f -> assertThat(f).isCompleted());
                assertThat(blocked).isNotDone();
            } finally {
                releaseCallback.countDown();
            }
            blocked.get(60, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void callbacksRunOnTheConfiguredExecutor(String backend) throws Exception {
        ExecutorService app = Executors.newSingleThreadExecutor(task -> new Thread(task, "app-completions"));
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.completionExecutor(app))) {
            CountDownLatch writerParked = new CountDownLatch(1);
            CountDownLatch releaseWriter = new CountDownLatch(1);
            q.engine().writer().submitChore(() -> {
                writerParked.countDown();
                return awaitQuietly(releaseWriter);
            });
            assertThat(writerParked.await(60, TimeUnit.SECONDS)).isTrue();
            AtomicReference<String> callbackThread = new AtomicReference<>();
            CompletableFuture<Void> done = q.queue().ingest(hook("a-1", "a", 0))
                    .thenAccept(receipt -> callbackThread.set(Thread.currentThread().getName()));
            releaseWriter.countDown();
            done.get(60, TimeUnit.SECONDS);
            assertThat(callbackThread.get()).isEqualTo("app-completions");
        } finally {
            app.shutdown();
        }
    }

    private static Boolean awaitQuietly(CountDownLatch latch) {
        try {
            return latch.await(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
