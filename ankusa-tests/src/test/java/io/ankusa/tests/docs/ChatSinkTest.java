package io.ankusa.tests.docs;

// tag::testing[]
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.dispatch.Delivery;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Sink;
import io.ankusa.dispatch.SinkOutcome;
import io.ankusa.dispatch.TickReport;
import io.ankusa.queue.Queue;
import io.ankusa.testkit.AnkusaTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** An application's own sink, tested on a queue the Ankusa extension opens and closes. */
@AnkusaTest
class ChatSinkTest {

    /** The application's sink: posts each hook to a chat room, refuses empty ones for good. */
    static final class ChatSink implements Sink {
        final List<String> posted = new CopyOnWriteArrayList<>();

        @Override
        public CompletionStage<SinkOutcome> deliver(Delivery delivery) {
            String text = new String(delivery.payload(), StandardCharsets.UTF_8);
            if (text.isBlank()) {
                return CompletableFuture.completedFuture(SinkOutcome.dead("nothing to post"));
            }
            posted.add(delivery.tenantId() + ": " + text);
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        }
    }

    @Test
    void postsEachHookAndDeadLettersTheEmptyOne(Queue queue) {
        queue.ingest(hook("evt_1", "invoice paid")).join();
        queue.ingest(hook("evt_2", " ")).join();
        ChatSink sink = new ChatSink();

        try (Pipeline pipeline = Pipeline.builder(queue, sink).build()) {
            TickReport tick = pipeline.tick().toCompletableFuture().join();
            assertThat(tick.delivered()).isEqualTo(1);
            assertThat(tick.dead()).isEqualTo(1);
        }
        assertThat(sink.posted).containsExactly("acme: invoice paid");
        assertThat(queue.stats().dead()).isEqualTo(1);
    }

    private static Hook hook(String id, String text) {
        return Hook.builder().id(id).sourceId("billing").tenantId("acme").payload(text).sinks(0).build();
    }
}
// end::testing[]
