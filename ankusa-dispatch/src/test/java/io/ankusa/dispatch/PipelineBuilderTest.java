package io.ankusa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class PipelineBuilderTest {

    /** A queue the builder never calls before the pipeline is made. */
    private static final Queue QUEUE = (Queue) Proxy.newProxyInstance(Queue.class.getClassLoader(),
            new Class<?>[] {Queue.class}, (proxy, method, args) -> {
                throw new UnsupportedOperationException(method.getName());
            });

    private static Pipeline.Builder builder() {
        return Pipeline.builder(QUEUE, d -> CompletableFuture.completedFuture(SinkOutcome.delivered()));
    }

    @Test
    void needsAQueueAndASink() {
        assertThatThrownBy(() -> Pipeline.builder(null, d -> null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Pipeline.builder(QUEUE, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void refusesLimitsBelowOne() {
        assertThatThrownBy(() -> builder().rowsPerTick(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rowsPerTick");
        assertThatThrownBy(() -> builder().bytesPerTick(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder().concurrency(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("concurrency");
    }

    @Test
    void refusesDurationsThatAreNotPositive() {
        assertThatThrownBy(() -> builder().tickInterval(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder().sinkDeadline(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder().gaugeInterval(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder().retryPolicy(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> builder().gaugeListener(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void refusesAQueueThatIsNotAnAnkusaQueueWhenBuilt() {
        assertThatThrownBy(() -> builder().manual()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an Ankusa queue");
    }

    @Test
    void aBuilderEndsInAStartedOrAManualPipelineNeverAnIdleOne() {
        assertThat(Pipeline.Builder.class.getMethods()).extracting(Method::getName)
                .contains("start", "manual").doesNotContain("build");
    }
}
