package io.ankusa.tests.crash;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ankusa.api.Hook;
import io.ankusa.api.StoredHook;
import io.ankusa.tests.queue.QueueUnderTest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A hook the HTTP edge acknowledged with 201 is in the store after the serving JVM is killed with
 * SIGKILL right after the answers: a child JVM ({@link IngestEdgeProcess}) serves the edge over a
 * store, producer threads post hooks to it until enough were acknowledged, the parent kills the
 * child while posts are still in flight, reopens the store and finds every acknowledged hook under
 * its tenant and seq, with its id and payload.
 */
class IngestEdgeKillNineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PRODUCERS = 4;
    private static final int ACKS_BEFORE_KILL = 120;

    @TempDir
    Path tempDir;

    /** An acknowledged hook. */
    private record Ack(String tenant, String id, long seq) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void everyHookTheEdgeAcknowledgedSurvivesAKillNine(String backend) throws Exception {
        Path dir = tempDir.resolve("store");
        Map<String, Ack> acked = new ConcurrentHashMap<>();
        AtomicInteger next = new AtomicInteger();
        ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS);
        try (ChildJvm child = ChildJvm.start(IngestEdgeProcess.class, tempDir.resolve("edge.err"), backend,
                dir.toString())) {
            int[] port = {0};
            child.readUntil(line -> {
                if (line.startsWith("port ")) {
                    port[0] = Integer.parseInt(line.substring("port ".length()));
                    return true;
                }
                return false;
            });
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            List<Future<?>> running = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                running.add(producers.submit(() -> produce(http, port[0], next, acked)));
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (acked.size() < ACKS_BEFORE_KILL && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(acked.size()).as("acknowledged before the kill").isGreaterThanOrEqualTo(ACKS_BEFORE_KILL);
            child.killNine();
            for (Future<?> producer : running) {
                producer.get(2, TimeUnit.MINUTES);
            }
        } finally {
            producers.shutdownNow();
        }

        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            for (Ack ack : acked.values()) {
                Hook stored = q.queue().hook(ack.tenant(), ack.seq()).flatMap(StoredHook::hook).orElse(null);
                assertThat(stored).as("acknowledged hook %s of %s (seq %d)", ack.id(), ack.tenant(), ack.seq())
                        .isNotNull();
                assertThat(stored.id()).isEqualTo(ack.id());
                assertThat(new String(stored.payload(), java.nio.charset.StandardCharsets.UTF_8))
                        .isEqualTo("{\"n\":\"" + ack.id() + "\"}");
            }
        }
        System.out.printf("edge kill -9 %s: %d acknowledged hooks found after the kill (%d posted)%n", backend,
                acked.size(), next.get());
    }

    /** Posts hooks until the child is gone (a post fails), recording each 201. */
    private static void produce(HttpClient http, int port, AtomicInteger next, Map<String, Ack> acked) {
        while (true) {
            int n = next.incrementAndGet();
            String id = "msg_" + n;
            String tenant = "t" + (n % 17);
            String body = "{\"tenant\":\"" + tenant + "\",\"id\":\"" + id + "\",\"source\":\"crash\",\"payload\":"
                    + JSON.getNodeFactory().textNode("{\"n\":\"" + id + "\"}") + ",\"sinks\":[0]}";
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/hooks"))
                    .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + IngestEdgeProcess.TOKEN)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 201) {
                    throw new AssertionError("post " + id + " answered " + response.statusCode() + " "
                            + response.body());
                }
                JsonNode json = JSON.readTree(response.body());
                acked.put(id, new Ack(tenant, id, json.path("seq").asLong()));
            } catch (IOException e) {
                return; // the child is gone: a post in flight at the kill has no answer, and counts for nothing
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
