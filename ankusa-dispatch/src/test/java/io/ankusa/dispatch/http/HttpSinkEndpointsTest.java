package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Per-tenant endpoints, the SSRF guard and secret rotation, against a real HTTP server on
 * 127.0.0.1 and a bare listener that counts the connections it accepts.
 */
class HttpSinkEndpointsTest {

    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final WebhookSecret OLD = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

    /** A request as the receiver saw it. */
    private record Received(String path, Headers headers, byte[] body) {
    }

    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private HttpServer server;
    private ServerSocket listener;
    private final AtomicInteger accepted = new AtomicInteger();
    private Thread acceptor;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.createContext("/", exchange -> {
            received.add(new Received(exchange.getRequestURI().getPath(), exchange.getRequestHeaders(),
                    exchange.getRequestBody().readAllBytes()));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try {
                    Socket socket = listener.accept();
                    accepted.incrementAndGet();
                    socket.close();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "connection-counter");
        acceptor.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop(0);
        listener.close();
        acceptor.join(TimeUnit.SECONDS.toMillis(10));
    }

    @Test
    void aPrivateAddressIsRefusedBeforeConnecting() throws Exception {
        int port = listener.getLocalPort();
        List<String> refused = List.of(
                "http://127.0.0.1:" + port + "/", "http://127.8.9.10:" + port + "/", "http://localhost:" + port + "/",
                "http://app.localhost:" + port + "/", "http://[::1]:" + port + "/", "http://0.0.0.0:" + port + "/",
                "http://[::]:" + port + "/", "http://2130706433:" + port + "/", "http://0x7f000001:" + port + "/",
                "http://017700000001:" + port + "/", "http://127.1:" + port + "/", "http://0177.0.0.1:" + port + "/",
                "http://[::ffff:127.0.0.1]:" + port + "/", "http://[::ffff:7f00:1]:" + port + "/",
                "http://[::127.0.0.1]:" + port + "/", "http://[64:ff9b::7f00:1]:" + port + "/",
                "http://[2002:7f00:1::]:" + port + "/",
                "http://169.254.169.254/latest/meta-data/", "http://[::ffff:169.254.169.254]/", "http://[fd00:ec2::254]/",
                "http://10.0.0.1/", "http://10.255.255.255/", "http://172.16.0.1/", "http://172.31.255.254/",
                "http://192.168.1.1/", "http://100.64.0.1/", "http://100.127.255.254/", "http://224.0.0.1/",
                "http://239.255.255.250/", "http://255.255.255.255/", "http://240.0.0.1/", "http://[fe80::1]/",
                "http://[fc00::1]/", "http://[ff02::1]/", "http://[fec0::1]/",
                "http://metadata.google.internal/computeMetadata/v1/", "http://metadata/", "http://METADATA.google.internal./",
                "http://instance-data/", "http://256.1.1.1/", "http://99999999999/");
        try (WebhookClient client = WebhookClient.builder().build()) {
            for (String url : refused) {
                HttpSink sink = HttpSink.builder(URI.create(url), OLD).client(client).clock(InstantSource.fixed(NOW)).build();
                SinkOutcome outcome = deliver(sink, delivery("acme"));
                assertThat(outcome).as(url).isInstanceOf(SinkOutcome.Dead.class);
                assertThat(outcome.reason()).as(url).startsWith(AddressGuard.SSRF_REFUSED + ": ");
            }
        }
        assertThat(accepted).as("connections that reached the local listener").hasValue(0);
        assertThat(received).isEmpty();
        assertThat(AddressGuard.publicOnly().refusal(URI.create("http://93.184.215.14/"))).isEmpty();
        assertThat(AddressGuard.publicOnly().refusal(URI.create("http://[2606:4700::1111]/"))).isEmpty();
    }

    @Test
    void theAllowlistLetsALocalServerThroughOnPurpose() throws Exception {
        int port = server.getAddress().getPort();
        AddressGuard guard = AddressGuard.builder().allowRange("127.0.0.0/8").allowHost("localhost").build();
        try (WebhookClient client = WebhookClient.builder().guard(guard).build()) {
            for (String url : List.of("http://127.0.0.1:" + port + "/a", "http://[::ffff:127.0.0.1]:" + port + "/b",
                    "http://localhost:" + port + "/c")) {
                HttpSink sink = HttpSink.builder(URI.create(url), OLD).client(client).clock(InstantSource.fixed(NOW)).build();
                assertThat(deliver(sink, delivery("acme"))).as(url).isEqualTo(SinkOutcome.delivered(204));
            }
            HttpSink other = HttpSink.builder(URI.create("http://10.0.0.1/"), OLD).client(client).build();
            assertThat(deliver(other, delivery("acme")).reason()).as("only what is allowed")
                    .startsWith(AddressGuard.SSRF_REFUSED);
        }
        assertThat(received).extracting(Received::path).containsExactlyInAnyOrder("/a", "/b", "/c");
    }

    @Test
    void httpsOnlyRefusesPlainHttpEvenWhenAllowed() throws Exception {
        AddressGuard guard = AddressGuard.builder().allowRange("127.0.0.0/8").httpsOnly(true).build();
        try (HttpSink sink = HttpSink.builder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"), OLD)
                .guard(guard).build()) {
            SinkOutcome outcome = deliver(sink, delivery("acme"));
            assertThat(outcome).isInstanceOf(SinkOutcome.Dead.class);
            assertThat(outcome.reason()).startsWith("ssrf_refused: only https");
        }
        assertThat(received).isEmpty();
    }

    @Test
    void aRotatedSecretSignsWithBoth() throws Exception {
        WebhookSecret next = WebhookSecret.generate();
        Endpoint endpoint = Endpoint.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/in"), OLD, next);
        try (HttpSink sink = loopbackSink(EndpointResolver.fixed(endpoint)).clock(InstantSource.system()).build()) {
            assertThat(deliver(sink, delivery("acme"))).isEqualTo(SinkOutcome.delivered(204));
        }
        Received request = received.poll(30, TimeUnit.SECONDS);
        assertThat(request).isNotNull();
        assertThat(request.headers().getFirst("webhook-signature").split(" ")).hasSize(2).allMatch(s -> s.startsWith("v1,"));
        // A receiver holding either secret accepts the request: the old one until it switches, the new one after.
        for (WebhookVerifier verifier : List.of(WebhookVerifier.of(OLD), WebhookVerifier.of(next))) {
            verifier.verify(request.headers(), request.body());
        }
    }

    @Test
    @DisplayName("a v1a signature verifies with the public key")
    void aV1aSignatureVerifiesWithThePublicKey() throws Exception {
        WebhookSigningKey key = WebhookSigningKey.generate();
        WebhookSigningKey next = WebhookSigningKey.generate();
        Endpoint endpoint = Endpoint.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/in"), OLD)
                .withSigningKeys(List.of(key, next));
        try (HttpSink sink = loopbackSink(EndpointResolver.fixed(endpoint)).clock(InstantSource.system()).build()) {
            assertThat(deliver(sink, delivery("acme"))).isEqualTo(SinkOutcome.delivered(204));
        }
        Received request = received.poll(30, TimeUnit.SECONDS);
        assertThat(request).isNotNull();
        String[] entries = request.headers().getFirst("webhook-signature").split(" ");
        assertThat(entries).hasSize(3);
        assertThat(entries[0]).startsWith("v1,");
        assertThat(entries[1]).startsWith("v1a,");
        assertThat(entries[2]).startsWith("v1a,");

        // The receiver holds only the published whpk_ form of the key.
        WebhookPublicKey published = WebhookPublicKey.parse(key.publicKey().serialized());
        WebhookVerifier.of(published).verify(request.headers(), request.body());
        WebhookVerifier.of(next.publicKey()).verify(request.headers(), request.body());
        WebhookVerifier.of(OLD).verify(request.headers(), request.body());
        // And independently of the verifier: the JDK alone, the key read through X.509.
        Signature jdk = Signature.getInstance("Ed25519");
        byte[] raw = Base64.getDecoder().decode(published.serialized().substring("whpk_".length()));
        jdk.initVerify(KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(
                HexFormat.of().parseHex("302a300506032b6570032100" + HexFormat.of().formatHex(raw)))));
        jdk.update((request.headers().getFirst("webhook-id") + "." + request.headers().getFirst("webhook-timestamp")
                + ".").getBytes(StandardCharsets.UTF_8));
        jdk.update(request.body());
        assertThat(jdk.verify(Base64.getDecoder().decode(entries[1].substring("v1a,".length())))).isTrue();

        Map<String, String> onlyV1 = Map.of("webhook-id", request.headers().getFirst("webhook-id"),
                "webhook-timestamp", request.headers().getFirst("webhook-timestamp"), "webhook-signature", entries[0]);
        byte[] tampered = (new String(request.body(), StandardCharsets.UTF_8) + " ").getBytes(StandardCharsets.UTF_8);
        for (Runnable refused : List.<Runnable>of(
                () -> WebhookVerifier.of(WebhookSigningKey.generate().publicKey()).verify(request.headers(), request.body()),
                () -> WebhookVerifier.of(published).verify(request.headers(), tampered),
                () -> WebhookVerifier.of(published).verify(onlyV1, request.body()))) {
            assertThatThrownBy(refused::run).isInstanceOfSatisfying(WebhookVerificationException.class,
                    e -> assertThat(e.reason()).isEqualTo(WebhookVerificationException.Reason.NO_MATCHING_SIGNATURE));
        }
    }

    @Test
    void anEndpointSignedWithKeysOnlySendsV1aAloneAndOneWithNeitherIsRefused() throws Exception {
        WebhookSigningKey key = WebhookSigningKey.generate();
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/in");
        try (HttpSink sink = loopbackSink(EndpointResolver.fixed(Endpoint.of(url, key))).clock(InstantSource.system())
                .build()) {
            assertThat(deliver(sink, delivery("acme"))).isEqualTo(SinkOutcome.delivered(204));
        }
        Received request = received.poll(30, TimeUnit.SECONDS);
        assertThat(request).isNotNull();
        assertThat(request.headers().getFirst("webhook-signature")).startsWith("v1a,").doesNotContain(" ");
        WebhookVerifier.of(key.publicKey()).verify(request.headers(), request.body());
        assertThatThrownBy(() -> Endpoint.of(url, OLD).withSecrets(List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one secret or signing key");
        assertThatThrownBy(() -> Endpoint.of(url, key).withSigningKeys(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Endpoint.of(url, OLD).withSigningKeys(List.of(key)).toString())
                .contains("1 secret(s), 1 signing key(s)").doesNotContain(key.serialized().substring(5));
    }

    @Test
    void eachTenantReachesItsOwnEndpointUntilInvalidated() throws Exception {
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        Map<String, Endpoint> registry = new ConcurrentHashMap<>();
        registry.put("acme", Endpoint.of(URI.create(base + "/acme"), OLD).withHeaders(Map.of("X-Customer", "acme")));
        registry.put("globex", Endpoint.of(URI.create(base + "/globex"), OLD).withEnabled(false));
        AtomicInteger lookups = new AtomicInteger();
        EndpointResolver resolver = (tenant, sinkNumber) -> {
            lookups.incrementAndGet();
            return Optional.ofNullable(registry.get(tenant));
        };
        try (HttpSink sink = loopbackSink(resolver).build()) {
            assertThat(deliver(sink, delivery("acme"))).isEqualTo(SinkOutcome.delivered(204));
            assertThat(deliver(sink, delivery("acme"))).isEqualTo(SinkOutcome.delivered(204));
            SinkOutcome disabled = deliver(sink, delivery("globex"));
            assertThat(disabled).isInstanceOf(SinkOutcome.EndpointDisabled.class);
            assertThat(disabled.reason()).startsWith(SinkOutcome.ENDPOINT_DISABLED);
            SinkOutcome unknown = deliver(sink, delivery("initech"));
            assertThat(unknown).isInstanceOf(SinkOutcome.Dead.class);
            assertThat(unknown.reason()).startsWith(HttpSink.UNKNOWN_ENDPOINT);
            assertThat(lookups).as("one lookup per tenant, then the cache").hasValue(3);

            registry.put("acme", Endpoint.of(URI.create(base + "/acme-v2"), OLD));
            assertThat(deliver(sink, delivery("acme"))).isEqualTo(SinkOutcome.delivered(204));
            sink.invalidate("acme");
            assertThat(deliver(sink, delivery("acme"))).isEqualTo(SinkOutcome.delivered(204));
            registry.put("globex", registry.get("globex").withEnabled(true));
            sink.invalidateAll();
            assertThat(deliver(sink, delivery("globex"))).isEqualTo(SinkOutcome.delivered(204));
        }
        assertThat(received).extracting(Received::path).containsExactly("/acme", "/acme", "/acme", "/acme-v2", "/globex");
        assertThat(received.peek().headers().getFirst("x-customer")).isEqualTo("acme");
    }

    @Test
    void aResolverThatThrowsCostsARetry() throws Exception {
        try (HttpSink sink = loopbackSink((tenant, sinkNumber) -> {
            throw new UncheckedIOException(new IOException("registry down"));
        }).build()) {
            SinkOutcome outcome = deliver(sink, delivery("acme"));
            assertThat(outcome).isInstanceOf(SinkOutcome.Retry.class);
            assertThat(outcome.reason()).startsWith(HttpSink.ENDPOINT_LOOKUP_FAILED).contains("registry down");
        }
    }

    private static HttpSink.Builder loopbackSink(EndpointResolver resolver) {
        return HttpSink.builder(resolver).guard(AddressGuard.builder().allowRange("127.0.0.1").build())
                .clock(InstantSource.fixed(NOW));
    }

    private static Delivery delivery(String tenant) {
        return new Delivery("msg_" + tenant, "billing", tenant, 0, 1, Map.of(), "{\"n\":1}".getBytes(StandardCharsets.UTF_8),
                NOW.minusSeconds(60), NOW);
    }

    private static SinkOutcome deliver(HttpSink sink, Delivery delivery) throws Exception {
        return sink.deliver(delivery).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
