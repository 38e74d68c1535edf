package io.ankusa.queue.intake;

import static io.ankusa.tests.queue.QueueUnderTest.hook;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.IngestOverloadedException;
import io.ankusa.api.Receipt;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Queue.ingest(hook, timeout)}: past {@code ingestQueueCapacity} the
 * producer waits for room instead of being refused, and is refused only when its wait is over.
 * A chore parks the writer so that the queue stays full for as long as the test needs.
 */
class WaitingIngestTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aWaitingProducerGetsInWhenTheWriterMakesRoom(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.ingestQueueCapacity(2))) {
            CountDownLatch releaseWriter = park(q);
            CompletableFuture<Receipt> first = q.queue().ingest(hook("h-1", "a", 0));
            CompletableFuture<Receipt> second = q.queue().ingest(hook("h-2", "a", 0));
            assertOverloaded(q.queue().ingest(hook("h-3", "a", 0)));

            AtomicReference<CompletableFuture<Receipt>> waited = new AtomicReference<>();
            Thread producer = new Thread(() -> waited.set(q.queue().ingest(hook("h-4", "a", 0), Duration.ofMinutes(2))));
            producer.start();
            while (producer.getState() != Thread.State.TIMED_WAITING && producer.isAlive()) {
                Thread.onSpinWait();
            }
            assertThat(producer.isAlive()).as("the producer waits for room").isTrue();

            releaseWriter.countDown();
            producer.join(TimeUnit.MINUTES.toMillis(2));
            assertThat(waited.get().get(60, TimeUnit.SECONDS).seq()).isEqualTo(3);
            assertThat(first.get(60, TimeUnit.SECONDS).seq()).isEqualTo(1);
            assertThat(second.get(60, TimeUnit.SECONDS).seq()).isEqualTo(2);
            assertThat(q.queue().stats().pending()).isEqualTo(3);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aProducerStillWithoutRoomWhenItsWaitIsOverIsRefused(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.ingestQueueCapacity(1))) {
            CountDownLatch releaseWriter = park(q);
            CompletableFuture<Receipt> first = q.queue().ingest(hook("h-1", "a", 0));
            assertOverloaded(q.queue().ingest(hook("h-2", "a", 0), Duration.ofMillis(20)));
            releaseWriter.countDown();
            assertThat(first.get(60, TimeUnit.SECONDS).seq()).isEqualTo(1);
            assertThat(q.queue().stats().pending()).as("the refused hook wrote nothing").isEqualTo(1);
        }
    }

    /** Parks the writer in a chore until the returned latch is counted down. */
    private static CountDownLatch park(QueueUnderTest q) throws InterruptedException {
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        q.engine().writer().submitChore(() -> {
            parked.countDown();
            try {
                return release.await(5, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        assertThat(parked.await(60, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    private static void assertOverloaded(CompletableFuture<Receipt> refused) throws InterruptedException {
        assertThat(refused).isCompletedExceptionally();
        try {
            refused.get();
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(IngestOverloadedException.class);
        }
    }
}
