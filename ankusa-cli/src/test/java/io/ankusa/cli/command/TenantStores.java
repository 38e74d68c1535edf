package io.ankusa.cli.command;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/** Stores for the command tests: one hook per listed tenant (a tenant listed twice gets two), sinks 0 and 1. */
final class TenantStores {

    private TenantStores() {
    }

    static Path storeWith(Path dir, String backend, String... tenants) {
        Path store = dir.resolve("store-" + backend);
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend).build())) {
            CompletableFuture<?>[] receipts = new CompletableFuture<?>[tenants.length];
            for (int i = 0; i < tenants.length; i++) {
                receipts[i] = queue.ingest(Hook.builder().id("h" + i).sourceId("test").tenantId(tenants[i])
                        .payload("{}").sinks(0, 1).build());
            }
            CompletableFuture.allOf(receipts).join();
        }
        return store;
    }
}
