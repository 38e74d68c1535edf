package com.example.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.TenantStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.queue.Queue;
import io.ankusa.testkit.AnkusaTest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The application's sink, tested on a queue the Ankusa extension opens on a temporary store and closes. */
@AnkusaTest
class ChatSinkTest {

    private final List<String> room = new CopyOnWriteArrayList<>();

    @Test
    void postsEachHookAndDeadLettersTheEmptyOne(Queue queue) {
        queue.ingest(hook("evt_1", "invoice paid")).join();
        queue.ingest(hook("evt_2", " ")).join();

        try (Pipeline pipeline = Pipeline.builder(queue, new ChatSink(room::add)).manual()) {
            TickReport tick = pipeline.tick().toCompletableFuture().join();
            assertThat(tick.delivered()).isEqualTo(1);
            assertThat(tick.dead()).isEqualTo(1);
        }
        assertThat(room).containsExactly("acme: invoice paid");
        assertThat(queue.stats().dead()).isEqualTo(1);
    }

    @Test
    void aBusyRoomIsRetriedNotLost(Queue queue) {
        queue.ingest(hook("evt_3", "invoice overdue")).join();

        try (Pipeline pipeline = Pipeline.builder(queue, new ChatSink(message -> false)).manual()) {
            TickReport tick = pipeline.tick().toCompletableFuture().join();
            assertThat(tick.delivered()).isZero();
            assertThat(tick.retried()).isEqualTo(1);
        }
        assertThat(queue.stats().dead()).isZero();
        TenantStats acme = queue.pendingForTenant("acme");
        assertThat(acme.pending() + acme.scheduled()).isEqualTo(1);
    }

    private static Hook hook(String id, String text) {
        return Hook.builder().id(id).sourceId("billing").tenantId("acme").payload(text).sinks(0).build();
    }
}
