package io.ankusa.spring.boot.sample;

import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.queue.Queue;
import java.util.concurrent.CompletableFuture;
import org.springframework.stereotype.Service;

/** The sample's own code: it takes the auto-configured queue and ingests. */
@Service
public class Notifications {

    private final Queue queue;

    Notifications(Queue queue) {
        this.queue = queue;
    }

    /** Queues a notification of {@code tenant}; the future completes once it is durable. */
    public CompletableFuture<Receipt> send(String tenant, String id, String json) {
        return queue.ingest(Hook.builder().id(id).sourceId("sample").tenantId(tenant).payload(json).sinks(0).build());
    }
}
