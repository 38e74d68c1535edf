package io.ankusa.tests.docs;

import io.ankusa.api.EndpointSpec;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.queue.Queue;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

// The README's embedding example, verbatim from "tag::readme" to "end::readme" (ReadmeTest checks it);
// OutboxTest runs it against a local receiver.
// tag::readme[]
/** A service's outbox: tenants' endpoints, events in, signed POSTs out, per-tenant backlog on demand. */
final class Outbox implements AutoCloseable {

    private final Queue queue;
    private final RegistryResolver endpoints;
    private final HttpSink http;
    private final Pipeline pipeline;

    /** {@code guard}: which addresses may be called; {@code AddressGuard.publicOnly()} in production. */
    Outbox(Path directory, AddressGuard guard) {
        queue = Queue.open(QueueConfig.builder(directory).build()); // RocksDB unless .backend("lmdb")
        endpoints = RegistryResolver.of(queue, guard); // the tenants' endpoints, kept in the queue's store
        http = HttpSink.builder(endpoints).guard(guard).build();
        pipeline = Pipeline.builder(queue, http).start(); // delivers, retries, dead-letters
    }

    /** Registers a tenant's endpoint for event types ({@code invoice.*} too); returns its whsec_… secret. */
    String subscribe(String tenant, URI url, List<String> eventTypes) {
        return endpoints.registry().add(tenant, EndpointSpec.of(url).withEventTypes(eventTypes))
                .secrets().get(0).secret();
    }

    /** Completes once the hook is on disk, one delivery per subscribed endpoint (a synced commit). */
    CompletableFuture<Receipt> send(String tenant, String eventId, String eventType, String json) {
        return queue.ingest(Hook.builder()
                .id(eventId)
                .sourceId("billing")
                .tenantId(tenant)
                .eventType(eventType)
                .header("content-type", "application/json")
                .payload(json)
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

    /** {@code java … Outbox <store directory> <endpoint URL>} */
    public static void main(String[] args) {
        try (Outbox outbox = new Outbox(Path.of(args[0]), AddressGuard.publicOnly())) {
            String secret = outbox.subscribe("acme", URI.create(args[1]), List.of("invoice.*"));
            Receipt receipt = outbox.send("acme", "evt_1001", "invoice.paid", "{\"total\":42}").join();
            System.out.println("queued as seq " + receipt.seq() + " for sinks " + receipt.sinks().orElseThrow()
                    + " (verify with " + secret + "); " + outbox.backlog("acme"));
        }
    }
}
// end::readme[]
