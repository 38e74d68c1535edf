package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.api.Receipt;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fan-out by event type, end to end: hooks ingested with an event type reach, at a real receiver
 * on 127.0.0.1, exactly the registered endpoints of their tenant subscribed to the type, and a
 * registry change made after a hook was ingested does not change where that hook goes.
 */
class FanOutDeliveryTest {

    private static final AddressGuard LOCAL = AddressGuard.builder().allowRange("127.0.0.1").build();

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    /** Each request as "path webhook-id". */
    private final List<String> received = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startReceiver() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/", e -> {
            e.getRequestBody().readAllBytes();
            received.add(e.getRequestURI().getPath() + " " + e.getRequestHeaders().getFirst("webhook-id"));
            e.sendResponseHeaders(200, -1);
            e.close();
        });
        server.start();
    }

    @AfterEach
    void stopReceiver() {
        server.stop(0);
        handlers.shutdownNow();
    }

    private EndpointSpec at(String path, String... types) {
        return EndpointSpec.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
                .withId(path.substring(1)).withEventTypes(List.of(types));
    }

    private static Hook typed(String id, String tenant, String type) {
        return Hook.builder().id(id).sourceId("billing").tenantId(tenant).eventType(type).payload("{}").build();
    }

    private static void tickUntil(Pipeline pipeline, BooleanSupplier done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            DispatchFixture.await(pipeline.tick());
        }
        assertThat(done.getAsBoolean()).as("done within the deadline").isTrue();
    }

    private Map<String, List<String>> byPath() {
        return received.stream().collect(Collectors.groupingBy(r -> r.split(" ")[0], java.util.TreeMap::new,
                Collectors.mapping(r -> r.split(" ")[1], Collectors.collectingAndThen(Collectors.toList(),
                        ids -> ids.stream().sorted().toList()))));
    }

    @ParameterizedTest(name = "a hook fans out to the endpoints subscribed to its event type [{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookFansOutToTheEndpointsSubscribedToItsEventType(String backend) throws Exception {
        QueueConfig config = QueueConfig.builder(dir).backend(backend).build();
        try (Queue queue = Queue.open(config)) {
            RegistryResolver resolver = RegistryResolver.of(queue, LOCAL);
            EndpointRegistry registry = resolver.registry();
            registry.add("acme", at("/billing", "invoice.*"));
            registry.add("acme", at("/paid", "invoice.paid"));
            registry.add("acme", at("/users", "user.created"));
            registry.add("acme", at("/quiet"));
            registry.add("globex", at("/globex", "invoice.*"));

            Receipt first = queue.ingest(typed("msg_1", "acme", "invoice.paid")).get();
            Receipt none = queue.ingest(typed("msg_0", "acme", "order.created")).get();
            assertThat(first.sinks()).contains(List.of(0, 1));
            assertThat(none.noDeliveries()).isTrue();

            // After msg_1 was ingested: /paid goes, /users subscribes to invoices, /late joins.
            registry.remove("acme", "paid");
            registry.update("acme", "users", at("/users", "invoice.*"));
            registry.add("acme", at("/late", "invoice.paid"));
            Receipt second = queue.ingest(typed("msg_2", "acme", "invoice.paid")).get();
            assertThat(second.sinks()).contains(List.of(0, 2, 4));

            try (HttpSink sink = HttpSink.builder(resolver).guard(LOCAL).requestTimeout(Duration.ofSeconds(30))
                    .build(); Pipeline pipeline = Pipeline.builder(queue, sink).manual()) {
                tickUntil(pipeline, () -> {
                    QueueStats stats = queue.stats();
                    return received.size() >= 4 && stats.pending() + stats.scheduled() + stats.inflight() == 0;
                });
            }
            assertThat(byPath()).isEqualTo(Map.of(
                    "/billing", List.of("msg_1", "msg_2"),
                    "/users", List.of("msg_2"),
                    "/late", List.of("msg_2")));
            // msg_1's row for the removed /paid has no endpoint any more: dead-lettered, sent nowhere else.
            assertThat(queue.deadForTenant("acme").dead()).isEqualTo(1);
            assertThat(queue.hook("acme", none.seq())).as("nothing stored for a hook sent nowhere").isEmpty();
        }
    }
}
