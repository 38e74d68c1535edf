package io.ankusa.tests.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.queue.Queue;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's embedding example runs: an event sent through {@link Outbox} reaches, at a real
 * receiver, the endpoint subscribed to its type, signed with the secret the registry gave it.
 */
class OutboxTest {

    /** The signing key of the endpoint the test registers (from its whsec_ secret). */
    private volatile byte[] key;

    /** What the receiver saw: path and id, whether the signature checked out, body. */
    record Received(String id, boolean signed, String body) {
    }

    @TempDir
    Path dir;

    private HttpServer receiver;
    private final BlockingQueue<Received> received = new ArrayBlockingQueue<>(16);

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String id = exchange.getRequestHeaders().getFirst("webhook-id");
            String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
            String signature = exchange.getRequestHeaders().getFirst("webhook-signature");
            String text = new String(body, StandardCharsets.UTF_8);
            boolean signed = ("v1," + sign(id + "." + timestamp + "." + text)).equals(signature);
            received.add(new Received(exchange.getRequestURI().getPath() + " " + id, signed, text));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
    }

    private String sign(String content) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(content.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anEventSentThroughTheOutboxIsDeliveredSignedToItsSubscriberAndLeavesNoBacklog() throws Exception {
        String base = "http://127.0.0.1:" + receiver.getAddress().getPort();
        Receipt receipt;
        try (Outbox outbox = new Outbox(dir, AddressGuard.builder().allowRange("127.0.0.1").build())) {
            String secret = outbox.subscribe("acme", URI.create(base + "/invoices"), List.of("invoice.*"));
            outbox.subscribe("acme", URI.create(base + "/users"), List.of("user.created"));
            key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
            receipt = outbox.send("acme", "evt_1001", "invoice.paid", "{\"total\":42}").join();
            assertThat(receipt.sinks()).contains(List.of(0));

            Received got = received.poll(30, TimeUnit.SECONDS);
            assertThat(got).isEqualTo(new Received("/invoices evt_1001", true, "{\"total\":42}"));
            assertThat(outbox.backlog("globex")).isEqualTo("globex: 0 pending, 0 retrying, 0 in flight, 0 dead");
        }
        assertThat(receipt.tenantId()).isEqualTo("acme");
        try (Queue queue = Queue.open(QueueConfig.builder(dir).build())) {
            assertThat(queue.stats().pending() + queue.stats().inflight() + queue.stats().dead()).isZero();
        }
        assertThat(received).as("nothing for the endpoint not subscribed").isEmpty();
    }
}
