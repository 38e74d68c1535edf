package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ankusa.api.Hook;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Sinks;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.queue.deliveries.DeliveryRow;
import io.ankusa.queue.ledger.DeadEntry;
import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.tests.dispatch.DispatchFixture;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pipeline with {@link HttpSink}s against a real HTTP server on 127.0.0.1: the receiver checks
 * every signature with its own HMAC code, and each answer ends the way docs/delivery.md says once
 * the pipeline has settled it.
 */
class HttpSinkPipelineTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    private final CountDownLatch release = new CountDownLatch(1);
    /** Path → whether the receiver's own check of the signature passed, per request. */
    private final Map<String, List<Boolean>> verified = new ConcurrentHashMap<>();

    @BeforeEach
    void startReceiver() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/ok", e -> answer(e, 200, Map.of()));
        server.createContext("/busy", e -> answer(e, 429, Map.of("Retry-After", "30")));
        server.createContext("/gone", e -> answer(e, 410, Map.of()));
        server.createContext("/error", e -> answer(e, 500, Map.of()));
        server.createContext("/slow", e -> {
            check(e);
            try {
                release.await();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            e.sendResponseHeaders(200, -1);
            e.close();
        });
        server.start();
    }

    @AfterEach
    void stopReceiver() {
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    private void answer(HttpExchange exchange, int status, Map<String, String> headers) throws IOException {
        check(exchange);
        headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    /** The receiver's own Standard Webhooks check: HMAC-SHA256 over id.timestamp.body with the decoded secret. */
    private void check(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        String id = exchange.getRequestHeaders().getFirst("webhook-id");
        String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
        String signature = exchange.getRequestHeaders().getFirst("webhook-signature");
        boolean ok;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(SECRET.substring("whsec_".length())), "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            byte[] expected = mac.doFinal(body);
            ok = signature != null && signature.startsWith("v1,")
                    && MessageDigest.isEqual(expected, Base64.getDecoder().decode(signature.substring(3)))
                    && new String(body, StandardCharsets.UTF_8).equals("{\"order\":42}");
        } catch (Exception e) {
            ok = false;
        }
        verified.computeIfAbsent(exchange.getRequestURI().getPath(), p -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(ok);
    }

    /** A sink for {@code path}; only the receiver that never answers gets a short timeout, so no case depends on speed. */
    private HttpSink sink(String path, DispatchFixture f) {
        Duration timeout = path.equals("/slow") ? Duration.ofMillis(300) : Duration.ofSeconds(30);
        return HttpSink.builder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path), WebhookSecret.parse(SECRET))
                .guard(AddressGuard.builder().allowRange("127.0.0.1").build()) // the local receiver, on purpose
                .requestTimeout(timeout).clock(f.clock()).build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void httpSinkAgainstARealLocalHttpServer(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            long seq = f.ingest(Hook.builder().id("msg_2WxY").sourceId("shop").tenantId("acme")
                    .header("Content-Type", "application/json").payload("{\"order\":42}").sinks(0, 1, 2, 3, 4).build()).seq();
            Sinks sinks = Sinks.builder().sink(0, sink("/ok", f)).sink(1, sink("/busy", f)).sink(2, sink("/gone", f))
                    .sink(3, sink("/error", f)).sink(4, sink("/slow", f)).build();
            TickReport tick;
            try (Pipeline pipeline = f.pipeline(sinks, b -> b.random(new java.util.SplittableRandom(7)))) {
                tick = DispatchFixture.await(pipeline.tick());
            }

            // "/slow" is reached only if the request got out within its 300 ms timeout, which depends on the
            // machine's load; its outcome (a timeout, retried) is asserted below either way.
            assertThat(verified.keySet()).contains("/ok", "/busy", "/gone", "/error")
                    .isSubsetOf("/ok", "/busy", "/gone", "/error", "/slow");
            assertThat(verified.values().stream().flatMap(List::stream)).as("the receiver verified every signature").containsOnly(true);
            assertThat(tick.delivered()).as("2xx").isEqualTo(1);
            assertThat(tick.dead()).as("nothing: a 410 disables the endpoint and its delivery waits").isZero();
            assertThat(tick.retried()).as("429, 410 (waits), 500, timeout").isEqualTo(4);

            long ord = f.ord("acme");
            Map<Integer, DueRow> due = f.ledger().dueForTenant(ord, Long.MAX_VALUE - 1, 0, 10, Long.MAX_VALUE).stream()
                    .collect(Collectors.toMap(DueRow::sink, r -> r));
            assertThat(due.keySet()).containsExactlyInAnyOrder(1, 2, 3, 4);
            assertThat(due.values()).extracting(DueRow::kind).containsOnly(DueKind.RETRY);
            assertThat(due.get(2).at()).as("410: due now, held by the disabled endpoint").isEqualTo(f.now());
            assertThat(f.queue().endpoints("acme", 10)).filteredOn(e -> e.sink() == 2).singleElement()
                    .satisfies(e -> assertThat(e.reason()).contains(io.ankusa.api.EndpointDisableReason.GONE));
            assertThat(due.get(1).at()).as("429 retried after its Retry-After of 30 s").isEqualTo(f.now() + 30_000);
            assertThat(due.get(3).at()).as("500 retried on the schedule (5 s ± 20 % after the first attempt)")
                    .isBetween(f.now() + 4_000, f.now() + 6_000);
            assertThat(due.get(4).at()).as("timeout retried on the schedule").isBetween(f.now() + 4_000, f.now() + 6_000);
            assertThat(lastError(f, seq, 4)).startsWith("timeout");
            assertThat(lastError(f, seq, 3)).isEqualTo("http 500");
            assertThat(f.ledger().deadEntries(ord, Optional.empty(), 10)).isEmpty();
            assertThat(lastError(f, seq, 2)).startsWith("endpoint_gone: http 410");
            assertThat(f.store().get(ColumnFamilies.DELIVERIES, new DeliveryKey(seq, 0).encode())).as("delivered: row gone").isEmpty();
            f.assertConsistent();
        }
    }

    private static String lastError(DispatchFixture f, long seq, int sink) {
        return DeliveryRow.decode(f.store().get(ColumnFamilies.DELIVERIES, new DeliveryKey(seq, sink).encode()).orElseThrow())
                .lastError();
    }
}
