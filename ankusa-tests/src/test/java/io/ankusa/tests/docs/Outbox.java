package io.ankusa.tests.docs;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.WebhookSecret;
import io.ankusa.dispatch.sink.Sinks;
import io.ankusa.queue.Queue;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

// The README's embedding example, verbatim from "tag::readme" to "end::readme" (ReadmeTest checks it);
// OutboxTest runs it against a local receiver.
// tag::readme[]
/** A service's outbox: hooks in, signed POSTs out, per-tenant backlog on demand. */
final class Outbox implements AutoCloseable {

    private final Queue queue;
    private final HttpSink http;
    private final Pipeline pipeline;

    /** {@code guard}: which addresses may be called; {@code AddressGuard.publicOnly()} in production. */
    Outbox(Path directory, URI endpoint, String secret, AddressGuard guard) {
        queue = Queue.open(QueueConfig.builder(directory).build()); // RocksDB unless .backend("lmdb")
        http = HttpSink.builder(endpoint, WebhookSecret.parse(secret)).guard(guard).build();
        Sinks sinks = Sinks.builder().sink(0, http).build();
        pipeline = Pipeline.builder(queue, sinks).start(); // delivers, retries, dead-letters
    }

    /** Completes once the hook is on disk (a synced commit); delivery follows. */
    CompletableFuture<Receipt> send(String tenant, String eventId, String json) {
        return queue.ingest(Hook.builder()
                .id(eventId)
                .sourceId("billing")
                .tenantId(tenant)
                .header("content-type", "application/json")
                .payload(json)
                .sinks(0)
                .build());
    }

    /** Reads the tenant's counters: a few point reads, no scan, at any number of tenants. */
    String backlog(String tenant) {
        TenantStats stats = queue.pendingForTenant(tenant);
        return tenant + ": " + stats.pending() + " pending, " + stats.scheduled() + " retrying, "
                + stats.inflight() + " in flight, " + stats.dead() + " dead";
    }

    @Override
    public void close() {
        pipeline.close(); // the pipeline first: it settles what is under way
        http.close();
        queue.close();
    }

    /** {@code java … Outbox <store directory> <endpoint URL> <whsec_… secret>} */
    public static void main(String[] args) {
        try (Outbox outbox = new Outbox(Path.of(args[0]), URI.create(args[1]), args[2], AddressGuard.publicOnly())) {
            Receipt receipt = outbox.send("acme", "evt_1001", "{\"type\":\"invoice.paid\"}").join();
            System.out.println("queued as seq " + receipt.seq() + "; " + outbox.backlog("acme"));
        }
    }
}
// end::readme[]
