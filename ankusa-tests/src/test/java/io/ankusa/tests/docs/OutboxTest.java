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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's embedding example runs: a hook sent through {@link Outbox} reaches a real receiver, signed. */
class OutboxTest {

    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(KEY);

    /** What the receiver saw: id, whether the signature checked out, body. */
    record Received(String id, boolean signed, String body) {
    }

    @TempDir
    Path dir;

    private HttpServer receiver;
    private final BlockingQueue<Received> received = new ArrayBlockingQueue<>(16);

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/in", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String id = exchange.getRequestHeaders().getFirst("webhook-id");
            String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
            String signature = exchange.getRequestHeaders().getFirst("webhook-signature");
            received.add(new Received(id, ("v1," + sign(id + "." + timestamp + "." + new String(body, StandardCharsets.UTF_8)))
                    .equals(signature), new String(body, StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
    }

    private static String sign(String content) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(content.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aHookSentThroughTheOutboxIsDeliveredSignedAndLeavesNoBacklog() throws Exception {
        URI endpoint = URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/in");
        Receipt receipt;
        try (Outbox outbox = new Outbox(dir, endpoint, SECRET, AddressGuard.builder().allowRange("127.0.0.1").build())) {
            receipt = outbox.send("acme", "evt_1001", "{\"type\":\"invoice.paid\"}").join();

            Received got = received.poll(30, TimeUnit.SECONDS);
            assertThat(got).isEqualTo(new Received("evt_1001", true, "{\"type\":\"invoice.paid\"}"));
            assertThat(outbox.backlog("globex")).isEqualTo("globex: 0 pending, 0 retrying, 0 in flight, 0 dead");
        }
        assertThat(receipt.tenantId()).isEqualTo("acme");
        try (Queue queue = Queue.open(QueueConfig.builder(dir).build())) {
            assertThat(queue.stats().pending() + queue.stats().inflight() + queue.stats().dead()).isZero();
        }
    }
}
