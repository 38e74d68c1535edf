package io.ankusa.tests.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.ankusa.api.Hook;
import io.ankusa.queue.Queue;
import io.ankusa.testkit.AnkusaTest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The kit's JUnit 5 extension, run on fixture classes through the JUnit launcher: a test gets a
 * working queue, the same one as its {@code @BeforeEach}, a fresh one per test, closed after it; the
 * backend named by the annotation is the one opened.
 */
class AnkusaExtensionTest {

    static final List<Queue> SEEN = new CopyOnWriteArrayList<>();

    private static TestExecutionSummary run(Class<?> fixture) {
        SEEN.clear();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(fixture)).build(),
                listener);
        return listener.getSummary();
    }

    @Test
    void eachTestGetsAQueueOfItsOwnSharedWithItsBeforeEachAndClosedAfterIt() {
        TestExecutionSummary summary = run(TwoTests.class);

        assertThat(summary.getFailures()).isEmpty();
        assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
        // before, test, before, test: the pairs share a queue, the tests do not.
        assertThat(SEEN).hasSize(4);
        assertThat(SEEN.get(0)).isSameAs(SEEN.get(1));
        assertThat(SEEN.get(2)).isSameAs(SEEN.get(3));
        assertThat(SEEN.get(0)).isNotSameAs(SEEN.get(2));
        for (Queue closed : SEEN) {
            assertThatThrownBy(() -> closed.ingest(hook("late")).get()).isInstanceOfAny(ExecutionException.class,
                    RuntimeException.class).hasStackTraceContaining("QueueClosedException");
        }
    }

    @Test
    void theBackendIsTheAnnotations() {
        TestExecutionSummary summary = run(OnRocksDbButOneOnAMissingBackend.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(summary.getFailures()).singleElement().satisfies(failure -> assertThat(failure.getException())
                .hasStackTraceContaining("no-such-backend"));
    }

    static Hook hook(String id) {
        return Hook.builder().id(id).sourceId("test").tenantId("acme").payload("{}").sinks(0).build();
    }

    /** Two tests, each with a {@code @BeforeEach} taking a queue. */
    @AnkusaTest
    static class TwoTests {

        @BeforeEach
        void before(Queue queue) {
            SEEN.add(queue);
        }

        @Test
        void first(Queue queue) {
            SEEN.add(queue);
            assertThat(queue.ingest(hook("a")).join().tenantId()).isEqualTo("acme");
            assertThat(queue.stats().pending()).isEqualTo(1);
        }

        @Test
        void second(Queue queue) {
            SEEN.add(queue);
            assertThat(queue.stats().pending()).isZero();
        }
    }

    /** RocksDB for the class, a backend nobody provides for one method. */
    @AnkusaTest(backend = "rocksdb")
    static class OnRocksDbButOneOnAMissingBackend {

        @Test
        void onRocksDb(Queue queue) {
            assertThat(queue.ingest(hook("a")).join().tenantId()).isEqualTo("acme");
        }

        @Test
        @AnkusaTest(backend = "no-such-backend")
        void onAMissingBackend(Queue queue) {
            queue.stats();
        }
    }
}
