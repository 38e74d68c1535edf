package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client certificates (mutual TLS) per endpoint, against a real HTTPS server on 127.0.0.1 that
 * needs a client certificate. The key material is made once by the JDK's {@code keytool}:
 * a server key pair and a client key pair, each keystore trusting the other's certificate.
 */
class HttpSinkClientCertificateTest {

    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final WebhookSecret SECRET = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    private static final char[] PASSWORD = "changeit".toCharArray();
    private static final String CLIENT_SUBJECT = "CN=ankusa-test-client";
    private static final String NO_CERTIFICATE = "(no client certificate)";

    /** A request as the receiver saw it: its path and the subject of the client certificate presented. */
    private record Received(String path, String clientSubject) {
    }

    @TempDir
    static Path keys;

    private static Path serverStore;
    private static Path clientStore;

    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private HttpsServer server;
    private SSLContext clientCertificate;
    private SSLContext trustOnly;
    private String base;

    @BeforeAll
    static void makeKeys() throws Exception {
        serverStore = keys.resolve("server.p12");
        clientStore = keys.resolve("client.p12");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=ankusa-test-server", "-ext", "san=ip:127.0.0.1", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", serverStore.toString(), "-storepass", "changeit");
        keytool("-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", CLIENT_SUBJECT, "-validity", "2",
                "-storetype", "PKCS12", "-keystore", clientStore.toString(), "-storepass", "changeit");
        trustEachOther(serverStore, "server", clientStore, "client");
    }

    @BeforeEach
    void start() throws Exception {

        SSLContext serverContext = context(serverStore, true);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverContext) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters needClientAuth = getSSLContext().getDefaultSSLParameters();
                needClientAuth.setNeedClientAuth(true);
                params.setSSLParameters(needClientAuth);
            }
        });
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            received.add(new Received(exchange.getRequestURI().getPath(), subject((HttpsExchange) exchange)));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        base = "https://127.0.0.1:" + server.getAddress().getPort();
        clientCertificate = context(clientStore, true);
        trustOnly = context(clientStore, false);
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    @DisplayName("an mTLS endpoint receives only with the client certificate")
    void anMtlsEndpointReceivesOnlyWithTheClientCertificate() throws Exception {
        Endpoint with = Endpoint.of(URI.create(base + "/with"), SECRET).withClientCertificate(clientCertificate);
        Endpoint trustingOnly = Endpoint.of(URI.create(base + "/trusting-only"), SECRET).withClientCertificate(trustOnly);
        Endpoint without = Endpoint.of(URI.create(base + "/without"), SECRET);
        try (WebhookClient client = loopbackClient();
             HttpSink sink = sink(client, Map.of("with", with, "trusting-only", trustingOnly, "without", without))) {
            assertThat(deliver(sink, delivery("with"))).isEqualTo(SinkOutcome.delivered(204));
            assertThat(received.poll()).isEqualTo(new Received("/with", CLIENT_SUBJECT));

            SinkOutcome noKey = deliver(sink, delivery("trusting-only"));
            assertThat(noKey).as("the server is trusted, but no certificate is presented")
                    .isInstanceOf(SinkOutcome.Retry.class);
            SinkOutcome noContext = deliver(sink, delivery("without"));
            assertThat(noContext).as("the shared pool has no certificate").isInstanceOf(SinkOutcome.Retry.class);
            assertThat(received).as("requests the receiver saw without a certificate").isEmpty();
            assertThat(List.of(noKey.reason(), noContext.reason())).as("refused by the handshake, not timed out")
                    .allSatisfy(reason -> assertThat(reason).startsWith("i/o error: "));
        }
    }

    @Test
    void endpointsOnOneHostPresentEachTheirOwnCertificateOrNone() throws Exception {
        Endpoint with = Endpoint.of(URI.create(base + "/with"), SECRET).withClientCertificate(clientCertificate);
        Endpoint without = Endpoint.of(URI.create(base + "/without"), SECRET);
        List<SinkOutcome> withOutcomes = new ArrayList<>();
        List<SinkOutcome> withoutOutcomes = new ArrayList<>();
        try (WebhookClient client = loopbackClient();
             HttpSink sink = sink(client, Map.of("with", with, "without", without))) {
            for (int round = 0; round < 3; round++) {
                withOutcomes.add(deliver(sink, delivery("with")));
                withoutOutcomes.add(deliver(sink, delivery("without")));
            }
            assertThat(client.certificatePools()).as("one pool for the one certificate").isEqualTo(1);
        }
        assertThat(withOutcomes).containsOnly(SinkOutcome.delivered(204));
        assertThat(withoutOutcomes).as("never through a connection opened with the certificate")
                .allSatisfy(outcome -> assertThat(outcome).isInstanceOf(SinkOutcome.Retry.class));
        assertThat(received).containsExactly(new Received("/with", CLIENT_SUBJECT), new Received("/with", CLIENT_SUBJECT),
                new Received("/with", CLIENT_SUBJECT));
    }

    @Test
    void aClientCertificateNeedsHttpsAndIsComparedByIdentity() {
        assertThatThrownBy(() -> Endpoint.of(URI.create("http://127.0.0.1:8080/in"), SECRET)
                .withClientCertificate(clientCertificate))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("https");

        Endpoint with = Endpoint.of(URI.create(base + "/in"), SECRET).withClientCertificate(clientCertificate);
        assertThat(with.clientCertificate()).isSameAs(clientCertificate);
        assertThat(with.withHeaders(Map.of("X-A", "b")).withEnabled(false).withTraceparent(true).clientCertificate())
                .as("kept by the copy methods").isSameAs(clientCertificate);
        assertThat(with).isEqualTo(Endpoint.of(URI.create(base + "/in"), SECRET).withClientCertificate(clientCertificate))
                .isNotEqualTo(Endpoint.of(URI.create(base + "/in"), SECRET).withClientCertificate(trustOnly))
                .isNotEqualTo(Endpoint.of(URI.create(base + "/in"), SECRET));
        assertThat(with.withClientCertificate(null).clientCertificate()).isNull();
        assertThat(with.toString()).contains("client certificate").doesNotContain(clientCertificate.toString());
    }

    private static WebhookClient loopbackClient() {
        return WebhookClient.builder().guard(AddressGuard.builder().allowRange("127.0.0.1").build()).build();
    }

    private static HttpSink sink(WebhookClient client, Map<String, Endpoint> endpoints) {
        return HttpSink.builder((tenant, sinkNumber) -> Optional.ofNullable(endpoints.get(tenant)))
                .client(client).requestTimeout(Duration.ofSeconds(10)).clock(InstantSource.fixed(NOW)).build();
    }

    private static String subject(HttpsExchange exchange) {
        try {
            return ((X509Certificate) exchange.getSSLSession().getPeerCertificates()[0])
                    .getSubjectX500Principal().getName();
        } catch (SSLPeerUnverifiedException none) {
            return NO_CERTIFICATE;
        }
    }

    /** Imports each keystore's certificate into the other, so that each side trusts the other. */
    private static void trustEachOther(Path first, String firstAlias, Path second, String secondAlias) throws Exception {
        Path firstCertificate = keys.resolve(firstAlias + ".crt");
        Path secondCertificate = keys.resolve(secondAlias + ".crt");
        keytool("-exportcert", "-alias", firstAlias, "-keystore", first.toString(), "-storepass", "changeit",
                "-file", firstCertificate.toString());
        keytool("-exportcert", "-alias", secondAlias, "-keystore", second.toString(), "-storepass", "changeit",
                "-file", secondCertificate.toString());
        keytool("-importcert", "-noprompt", "-alias", firstAlias + "-trusted", "-file", firstCertificate.toString(),
                "-keystore", second.toString(), "-storepass", "changeit");
        keytool("-importcert", "-noprompt", "-alias", secondAlias + "-trusted", "-file", secondCertificate.toString(),
                "-keystore", first.toString(), "-storepass", "changeit");
    }

    /** A TLS context trusting the store's certificates, and presenting its key when {@code withKey}. */
    private static SSLContext context(Path store, boolean withKey) throws IOException, GeneralSecurityException {
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, PASSWORD);
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keyStore);
        KeyManagerFactory key = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        key.init(keyStore, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(withKey ? key.getKeyManagers() : null, trust.getTrustManagers(), null);
        return context;
    }

    private static void keytool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(keys.resolve("keytool.log").toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(process.exitValue()).as(() -> "keytool " + String.join(" ", arguments) + ": "
                + readLog()).isZero();
    }

    private static String readLog() {
        try {
            return Files.readString(keys.resolve("keytool.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static Delivery delivery(String tenant) {
        return new Delivery("msg_" + tenant, "billing", tenant, 0, 1, Map.of(), "{\"n\":1}".getBytes(StandardCharsets.UTF_8),
                NOW.minusSeconds(60), NOW);
    }

    private static SinkOutcome deliver(HttpSink sink, Delivery delivery) throws Exception {
        return sink.deliver(delivery).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
