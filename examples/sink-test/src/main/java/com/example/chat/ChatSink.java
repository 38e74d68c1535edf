package com.example.chat;

import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The application's Ankusa sink: posts each hook's payload to a chat room as "tenant: text".
 * An empty payload can never be posted, so it goes to the dead letters; a busy room is retried.
 */
public final class ChatSink implements Sink {

    private final ChatRoom room;

    /**
     * A sink posting to {@code room}.
     *
     * @param room where the messages go
     */
    public ChatSink(ChatRoom room) {
        this.room = room;
    }

    @Override
    public CompletionStage<SinkOutcome> deliver(Delivery delivery) {
        String text = new String(delivery.payload(), StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            return CompletableFuture.completedFuture(SinkOutcome.dead("nothing to post"));
        }
        boolean posted = room.post(delivery.tenantId() + ": " + text);
        return CompletableFuture.completedFuture(
                posted ? SinkOutcome.delivered() : SinkOutcome.retry("chat room busy"));
    }
}
