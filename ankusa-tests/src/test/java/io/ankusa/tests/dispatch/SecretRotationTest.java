package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.dispatch.http.WebhookSecret;
import io.ankusa.dispatch.http.WebhookVerificationException;
import io.ankusa.dispatch.http.WebhookVerifier;
import io.ankusa.queue.Queue;
import io.ankusa.tests.queue.MutableClock;
import io.ankusa.tests.queue.QueueUnderTest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Timed rotation of a registered endpoint's secret: the old secret keeps signing, next to the new
 * one, until the overlap ends by the queue's clock, and then stops by itself; checked at a real
 * receiver on 127.0.0.1 with the reference verifier.
 */
class SecretRotationTest {

    private static final AddressGuard LOCAL = AddressGuard.builder().allowRange("127.0.0.1").build();

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    private final List<Received> received = new CopyOnWriteArrayList<>();

    private record Received(Map<String, String> headers, byte[] body) {
    }

    @BeforeEach
    void startReceiver() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/in", e -> {
            byte[] body = e.getRequestBody().readAllBytes();
            Map<String, String> headers = new LinkedHashMap<>();
            e.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(java.util.Locale.ROOT),
                    values.get(0)));
            received.add(new Received(headers, body));
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

    private Received deliver(Queue queue, Pipeline pipeline, String id) throws Exception {
        int before = received.size();
        queue.ingest(Hook.builder().id(id).sourceId("shop").tenantId("acme").payload("{\"n\":1}").sinks(0).build())
                .get();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (received.size() == before && System.nanoTime() < deadline) {
            DispatchFixture.await(pipeline.tick());
        }
        assertThat(received).hasSize(before + 1);
        return received.get(before);
    }

    private static WebhookVerifier verifier(String secret, MutableClock clock) {
        return WebhookVerifier.of(WebhookSecret.parse(secret)).withClock(clock);
    }

    @ParameterizedTest(name = "a rotated secret keeps signing until its overlap ends [{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRotatedSecretKeepsSigningUntilItsOverlapEnds(String backend) throws Exception {
        MutableClock clock = new MutableClock(QueueUnderTest.EPOCH);
        QueueConfig config = QueueConfig.builder(dir).backend(backend).clock(clock).build();
        try (Queue queue = Queue.open(config)) {
            RegistryResolver resolver = RegistryResolver.of(queue, LOCAL);
            RegisteredEndpoint registered = resolver.registry().add("acme",
                    EndpointSpec.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/in")).withId("in"));
            String old = registered.secrets().get(0).secret();
            RegisteredEndpoint rotated = resolver.registry().rotate("acme", "in", Duration.ofHours(1));
            assertThat(rotated.secrets()).hasSize(2);
            assertThat(rotated.secrets().get(0).expiresAt()).isEqualTo(QueueUnderTest.EPOCH + 3_600_000);
            String fresh = rotated.secrets().get(1).secret();
            assertThat(fresh).isNotEqualTo(old);

            try (HttpSink sink = HttpSink.builder(resolver).guard(LOCAL).clock(clock)
                    .requestTimeout(Duration.ofSeconds(30)).build();
                    Pipeline pipeline = Pipeline.builder(queue, sink).manual()) {
                Received during = deliver(queue, pipeline, "msg_1");
                assertThat(during.headers().get("webhook-signature").split(" ")).hasSize(2);
                verifier(old, clock).verify(during.headers(), during.body());
                verifier(fresh, clock).verify(during.headers(), during.body());

                clock.advance(3_599_000);
                Received late = deliver(queue, pipeline, "msg_2");
                verifier(old, clock).verify(late.headers(), late.body());

                clock.advance(1_000);
                Received after = deliver(queue, pipeline, "msg_3");
                assertThat(after.headers().get("webhook-signature").split(" ")).hasSize(1);
                verifier(fresh, clock).verify(after.headers(), after.body());
                assertThatThrownBy(() -> verifier(old, clock).verify(after.headers(), after.body()))
                        .isInstanceOf(WebhookVerificationException.class);
            }
            assertThat(resolver.registry().endpoint("acme", "in").orElseThrow().secrets())
                    .extracting(s -> s.secret()).containsExactly(fresh);
        }
    }
}
