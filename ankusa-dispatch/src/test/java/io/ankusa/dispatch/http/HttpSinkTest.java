package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ankusa.api.AttemptErrorClass;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HttpSink} against a real HTTP server on the loopback interface. The receiver checks the
 * signature with its own HMAC code, as a consumer would, not with the sink's signer.
 */
class HttpSinkTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AddressGuard LOOPBACK_ALLOWED = AddressGuard.builder()
            .allowRange("127.0.0.0/8").allowHost("localhost").build();

    /** A request as the receiver saw it. */
    private record Received(String method, String path, com.sun.net.httpserver.Headers headers, byte[] body) {
    }

    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    /** Path → the client's port of the connection its last request came over. */
    private final Map<String, Integer> clientPorts = new java.util.concurrent.ConcurrentHashMap<>();
    /** Holds the slow handlers until the test is over; counted down in teardown, never awaited by the test. */
    private final CountDownLatch release = new CountDownLatch(1);
    private ExecutorService handlers;
    private HttpServer server;
    /** The tests' shared client: the guard lets loopback through, on purpose. */
    private WebhookClient client;

    @BeforeEach
    void startReceiver() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/ok", exchange -> respond(exchange, 200, Map.of()));
        server.createContext("/busy", exchange -> respond(exchange, 429, Map.of("Retry-After", "30")));
        server.createContext("/unavailable", exchange -> respond(exchange, 503, Map.of("Retry-After",
                DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(120).atOffset(ZoneOffset.UTC)))));
        server.createContext("/gone", exchange -> respond(exchange, 410, Map.of()));
        server.createContext("/error", exchange -> respond(exchange, 500, Map.of()));
        server.createContext("/missing", exchange -> respond(exchange, 404, Map.of()));
        server.createContext("/slow", exchange -> {
            record(exchange);
            awaitRelease();
            respond(exchange, 200, Map.of());
        });
        server.createContext("/stalled-body", exchange -> {
            record(exchange);
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write("partial".getBytes(StandardCharsets.US_ASCII));
                body.flush();
                awaitRelease();
            }
        });
        server.start();
        client = WebhookClient.builder().guard(LOOPBACK_ALLOWED).build();
    }

    @AfterEach
    void stopReceiver() {
        client.close();
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void a2xxIsDeliveredWithASignatureTheReceiverVerifiesItself() throws Exception {
        var headers = new LinkedHashMap<String, String>();
        headers.put("X-Event", "invoice.paid");
        headers.put("X-Tenant-Trace", "t-42");
        Delivery delivery = delivery("msg_p5jXN8AQM9LWM0D4loKWxJek", headers, "{\"test\": 2432232314}");

        SinkOutcome outcome = deliver(sink("/ok").build(), delivery);

        assertThat(outcome).isEqualTo(SinkOutcome.delivered(200));
        Received request = received.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(request).isNotNull();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(new String(request.body(), StandardCharsets.UTF_8)).isEqualTo("{\"test\": 2432232314}");
        assertThat(request.headers().getFirst("webhook-id")).isEqualTo("msg_p5jXN8AQM9LWM0D4loKWxJek");
        assertThat(request.headers().getFirst("webhook-timestamp")).isEqualTo(Long.toString(NOW.getEpochSecond()));
        assertThat(request.headers().getFirst("content-type")).isEqualTo("application/json");
        assertThat(request.headers().getFirst("x-event")).isEqualTo("invoice.paid");
        assertThat(request.headers().getFirst("x-tenant-trace")).isEqualTo("t-42");
        assertThat(receiverAcceptsSignature(request)).isTrue();
    }

    @Test
    void hopByHopHeadersAndForgedWebhookHeadersAreNotForwarded() throws Exception {
        var headers = new LinkedHashMap<String, String>();
        headers.put("Host", "attacker.example");
        headers.put("Content-Length", "999");
        headers.put("Connection", "close");
        headers.put("Transfer-Encoding", "chunked");
        headers.put("Webhook-Signature", "v1,Zm9yZ2Vk");
        headers.put("webhook-timestamp", "1");
        headers.put("Content-Type", "application/cloudevents+json");
        headers.put("svix-id", "msg_forged");
        headers.put("Svix-Signature", "v1,Zm9yZ2Vk");
        headers.put("User-Agent", "curl/8");
        headers.put("Keep-Alive", "timeout=5");
        headers.put("Proxy-Authorization", "Basic Zm9v");
        headers.put("TE", "trailers");
        headers.put("Trailer", "X-Checksum");
        headers.put("Upgrade", "h2c");
        headers.put("Expect", "100-continue");
        headers.put("X-Kept", "yes");
        Delivery delivery = delivery("msg_1", headers, "{}");

        SinkOutcome outcome = deliver(sink("/ok").build(), delivery);

        assertThat(outcome).isEqualTo(SinkOutcome.delivered(200));
        Received request = received.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(request).isNotNull();
        assertThat(request.headers().getFirst("host")).isEqualTo("127.0.0.1:" + server.getAddress().getPort());
        assertThat(request.headers().getFirst("content-length")).isEqualTo("2");
        assertThat(request.headers().get("webhook-signature")).hasSize(1);
        assertThat(request.headers().get("webhook-timestamp")).containsExactly(Long.toString(NOW.getEpochSecond()));
        assertThat(request.headers().get("content-type")).containsExactly("application/cloudevents+json");
        assertThat(request.headers().get("transfer-encoding")).isNull();
        for (String stripped : new String[] {"svix-id", "svix-signature", "keep-alive", "proxy-authorization", "te",
                "trailer", "upgrade", "expect"}) {
            assertThat(request.headers().get(stripped)).as(stripped).isNull();
        }
        assertThat(request.headers().get("user-agent")).containsExactly(HttpSink.USER_AGENT);
        assertThat(HttpSink.USER_AGENT).isEqualTo("Ankusa/0.1.0-SNAPSHOT");
        assertThat(request.headers().getFirst("x-kept")).isEqualTo("yes");
        assertThat(receiverAcceptsSignature(request)).isTrue();
    }

    @Test
    void a429IsRetriedAfterItsRetryAfterSeconds() throws Exception {
        SinkOutcome outcome = deliver(sink("/busy").build(), delivery("msg_1", Map.of(), "{}"));

        assertThat(outcome).isInstanceOf(SinkOutcome.Retry.class);
        assertThat(((SinkOutcome.Retry) outcome).after()).contains(Duration.ofSeconds(30));
        assertThat(((SinkOutcome.Retry) outcome).reason()).contains("429");
    }

    @Test
    void a503IsRetriedAfterItsRetryAfterDate() throws Exception {
        SinkOutcome outcome = deliver(sink("/unavailable").build(), delivery("msg_1", Map.of(), "{}"));

        assertThat(outcome).isInstanceOf(SinkOutcome.Retry.class);
        assertThat(((SinkOutcome.Retry) outcome).after()).contains(Duration.ofSeconds(120));
    }

    @Test
    void a410SaysTheEndpointIsGone() throws Exception {
        SinkOutcome outcome = deliver(sink("/gone").build(), delivery("msg_1", Map.of(), "{}"));

        assertThat(outcome).isInstanceOf(SinkOutcome.EndpointGone.class);
        assertThat(outcome.reason()).startsWith("endpoint_gone").contains("410");
    }

    @Test
    void a500IsRetriedWithoutAHint() throws Exception {
        SinkOutcome outcome = deliver(sink("/error").build(), delivery("msg_1", Map.of(), "{}"));

        assertThat(outcome).isEqualTo(http(500, "http 500"));
    }

    @Test
    void a4xxIsRetriedUnlessConfiguredAsPermanent() throws Exception {
        assertThat(deliver(sink("/missing").build(), delivery("msg_1", Map.of(), "{}")))
                .isEqualTo(http(404, "http 404"));
        assertThat(deliver(sink("/missing").deadStatuses(Set.of(404)).build(), delivery("msg_1", Map.of(), "{}")))
                .isEqualTo(new SinkOutcome.Dead("http 404 (configured as permanent)", OptionalInt.of(404), AttemptErrorClass.HTTP_4XX));
    }

    @Test
    void noResponseWithinTheRequestTimeoutIsRetried() throws Exception {
        HttpSink sink = sink("/slow").requestTimeout(Duration.ofMillis(300)).build();

        SinkOutcome outcome = deliver(sink, delivery("msg_1", Map.of(), "{}"));

        assertThat(outcome).isInstanceOf(SinkOutcome.Retry.class);
        assertThat(((SinkOutcome.Retry) outcome).reason()).startsWith("timeout").contains("PT0.3S");
        assertThat(received).hasSize(1);
    }

    @Test
    void theSharedClientOpensNoMoreConnectionsToOneHostThanItsLimit() throws Exception {
        try (WebhookClient limited = WebhookClient.builder().guard(LOOPBACK_ALLOWED).maxConnectionsPerHost(1).build()) {
            var held = sink("/slow").client(limited).build().deliver(delivery("msg_1", Map.of(), "{}")).toCompletableFuture();
            assertThat(received.poll(WAIT.toSeconds(), TimeUnit.SECONDS)).isNotNull();
            // The one connection is held by the receiver: this request waits for it instead of opening another.
            var queued = sink("/ok").client(limited).build().deliver(delivery("msg_2", Map.of(), "{}")).toCompletableFuture();
            release.countDown();

            assertThat(held.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(SinkOutcome.delivered(200));
            assertThat(queued.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(SinkOutcome.delivered(200));
            assertThat(clientPorts.get("/ok")).as("the second request came over the first one's connection")
                    .isEqualTo(clientPorts.get("/slow"));
        }
    }

    @Test
    void aStalledResponseBodyDoesNotHoldTheOutcome() throws Exception {
        HttpSink sink = sink("/stalled-body").requestTimeout(Duration.ofSeconds(20)).build();

        // The stage completes although the body never ends while the test runs.
        assertThat(deliver(sink, delivery("msg_1", Map.of(), "{}"))).isEqualTo(SinkOutcome.delivered(200));
    }

    @Test
    void aRefusedConnectionIsRetried() throws Exception {
        int closedPort;
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        HttpSink sink = HttpSink.builder(URI.create("http://127.0.0.1:" + closedPort + "/hooks"),
                WebhookSecret.parse(SECRET)).client(client).clock(InstantSource.fixed(NOW)).build();

        SinkOutcome outcome = deliver(sink, delivery("msg_1", Map.of(), "{}"));

        assertThat(outcome).isInstanceOf(SinkOutcome.Retry.class);
        assertThat(((SinkOutcome.Retry) outcome).reason()).startsWith("connect failed");
    }

    @Test
    void aHookIdWithAFullStopIsDeadAndNeverSent() throws Exception {
        SinkOutcome outcome = deliver(sink("/ok").build(), delivery("msg.1614265330", Map.of(), "{}"));

        assertThat(outcome).isInstanceOf(SinkOutcome.Dead.class);
        assertThat(((SinkOutcome.Dead) outcome).reason()).startsWith("unsignable hook id");
        assertThat(received).isEmpty();
    }

    @Test
    void aHeaderHttpRefusesIsDeadAndNeverSent() throws Exception {
        SinkOutcome outcome = deliver(sink("/ok").build(), delivery("msg_1", Map.of("X-Bad", "a\r\nInjected: 1"), "{}"));

        assertThat(outcome).isInstanceOf(SinkOutcome.Dead.class);
        assertThat(((SinkOutcome.Dead) outcome).reason()).startsWith("invalid request");
        assertThat(received).isEmpty();
    }

    @Test
    void eachAttemptIsSignedWithItsOwnTimestamp() throws Exception {
        var clock = new SteppingClock(NOW);
        HttpSink sink = sink("/ok").clock(clock).build();

        deliver(sink, delivery("msg_1", Map.of(), "{}"));
        clock.advance(Duration.ofMinutes(5));
        deliver(sink, delivery("msg_1", Map.of(), "{}"));

        Received first = received.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        Received second = received.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(first).isNotNull();
        assertThat(second).isNotNull();
        assertThat(second.headers().getFirst("webhook-id")).isEqualTo(first.headers().getFirst("webhook-id"));
        assertThat(Long.parseLong(second.headers().getFirst("webhook-timestamp")))
                .isEqualTo(Long.parseLong(first.headers().getFirst("webhook-timestamp")) + 300);
        assertThat(second.headers().getFirst("webhook-signature")).isNotEqualTo(first.headers().getFirst("webhook-signature"));
        assertThat(receiverAcceptsSignature(first)).isTrue();
        assertThat(receiverAcceptsSignature(second)).isTrue();
    }

    private HttpSink.Builder sink(String path) {
        return HttpSink.builder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path),
                        WebhookSecret.parse(SECRET))
                .client(client)
                .clock(InstantSource.fixed(NOW));
    }

    private static Delivery delivery(String hookId, Map<String, String> headers, String payload) {
        return new Delivery(hookId, "billing", "acme", 1, 1, headers, payload.getBytes(StandardCharsets.UTF_8),
                NOW.minusSeconds(60), NOW);
    }

    private static SinkOutcome deliver(HttpSink sink, Delivery delivery) throws Exception {
        return sink.deliver(delivery).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** The receiver's own check: the Standard Webhooks recipe written out, with a constant-time comparison. */
    private static boolean receiverAcceptsSignature(Received request) throws Exception {
        String id = request.headers().getFirst("webhook-id");
        String timestamp = request.headers().getFirst("webhook-timestamp");
        byte[] key = Base64.getDecoder().decode(SECRET.substring("whsec_".length()));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
        byte[] expected = mac.doFinal(request.body());
        for (String signature : request.headers().getFirst("webhook-signature").split(" ")) {
            if (signature.startsWith("v1,")
                    && MessageDigest.isEqual(expected, Base64.getDecoder().decode(signature.substring(3)))) {
                return true;
            }
        }
        return false;
    }

    private void record(HttpExchange exchange) throws IOException {
        clientPorts.put(exchange.getRequestURI().getPath(), exchange.getRemoteAddress().getPort());
        received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                exchange.getRequestHeaders(), exchange.getRequestBody().readAllBytes()));
    }

    private void respond(HttpExchange exchange, int status, Map<String, String> headers) throws IOException {
        if (!exchange.getRequestURI().getPath().equals("/slow")) {
            record(exchange);
        }
        headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        byte[] body = ("status " + status).getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private void awaitRelease() {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A clock the test moves by hand. */
    private static final class SteppingClock implements InstantSource {
        private volatile Instant now;

        SteppingClock(Instant start) {
            this.now = start;
        }

        void advance(Duration step) {
            now = now.plus(step);
        }

        @Override
        public Instant instant() {
            return now;
        }
    }


    /** A retry for a non-2xx answer, as the sink reports it: typed status and error class. */
    private static SinkOutcome http(int status, String reason) {
        return new SinkOutcome.Retry(Optional.empty(), reason, OptionalInt.of(status), AttemptErrorClass.ofStatus(status));
    }
}
