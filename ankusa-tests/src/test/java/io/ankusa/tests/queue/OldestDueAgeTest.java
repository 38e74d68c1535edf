package io.ankusa.tests.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * After the backlog drained, {@code oldestDueAge()} is empty. Markers of the
 * second a tick ran in are never deleted by that tick (a writer may still be adding to it), so a
 * drained backlog of many tenants leaves more stale markers than the gauge verifies; the gauge
 * must not report the age of a stale marker.
 */
class OldestDueAgeTest {

    /** More tenants than the gauge verifies markers of (32). */
    private static final int TENANTS = 40;

    @TempDir
    Path dir;

    private static void fill(QueueUnderTest q) {
        List<CompletableFuture<?>> receipts = new ArrayList<>();
        for (int t = 0; t < TENANTS; t++) {
            Hook hook = QueueUnderTest.hook("h" + t, "t" + t, 0);
            receipts.add(q.queue().ingest(hook));
        }
        receipts.forEach(r -> QueueUnderTest.await(r.thenApply(x -> x)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void afterTheBacklogDrainedTheOldestDueAgeIsEmpty(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            fill(q);
            try (Pipeline pipeline = Pipeline.builder(q.queue(), d -> CompletableFuture.completedFuture(SinkOutcome.delivered()))
                    .manual()) {
                pipeline.tick().toCompletableFuture().join();
                assertThat(q.queue().stats().pending()).as("drained").isZero();
                assertThat(q.queue().oldestDueAge()).as("right after the drain").isEmpty();
                q.clock().advance(30_000);
                assertThat(q.queue().oldestDueAge()).as("30 s after the drain, before any other tick").isEmpty();
                pipeline.tick().toCompletableFuture().join();
                q.clock().advance(30_000);
                assertThat(q.queue().oldestDueAge()).as("after a later tick").isEmpty();
            }
        }
    }
}
