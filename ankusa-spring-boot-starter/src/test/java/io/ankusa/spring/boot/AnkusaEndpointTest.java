package io.ankusa.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.EndpointState;
import io.ankusa.api.events.QueueListener;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The {@code ankusa} actuator endpoint over HTTP, in an application on a random port: the read's
 * JSON, a replay that revives a tenant's dead letters (and the pipeline delivers them), an
 * endpoint enabled, a bad request refused; and when the endpoint exists at all.
 */
@SpringBootTest(classes = AnkusaEndpointTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class AnkusaEndpointTest {

    private static final Path DIRECTORY = temporaryDirectory();

    /** Whether the sink dead-letters tenant {@code bad}'s hooks (until the test lets them through). */
    static final AtomicBoolean REFUSE_BAD = new AtomicBoolean(true);
    /** Counted down by each settle of tenant {@code bad}'s rows, once committed. */
    static volatile CountDownLatch badSettled = new CountDownLatch(3);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ankusa.directory", DIRECTORY::toString);
        registry.add("ankusa.housekeeping.interval", () -> "0s");
        registry.add("ankusa.pipeline.tick-interval", () -> "20ms");
        registry.add("management.endpoints.web.exposure.include", () -> "ankusa");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Sink sink() {
            return delivery -> {
                if (delivery.tenantId().equals("bad")) {
                    return CompletableFuture.completedFuture(REFUSE_BAD.get() ? SinkOutcome.dead("refused by the test")
                            : SinkOutcome.delivered());
                }
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            };
        }

        @Bean
        QueueListener settles() {
            return new QueueListener() {
                @Override
                public void onSettled(DeliverySettled event) {
                    if (event.tenant().equals("bad")) {
                        badSettled.countDown();
                    }
                }
            };
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    Queue queue;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void readsTheNodeReplaysATenantAndEnablesAnEndpoint() throws Exception {
        for (int i = 0; i < 3; i++) {
            queue.ingest(hook("bad", "b" + i)).get(60, TimeUnit.SECONDS);
        }
        queue.ingest(hook("good", "g")).get(60, TimeUnit.SECONDS);
        assertThat(badSettled.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(queue.stats().dead()).isEqualTo(3);

        Map<String, Object> node = json(get());
        assertThat(node).containsKeys("state", "stats", "tenants", "pipeline", "held", "topTenants");
        assertThat(node.get("state")).isEqualTo("RUNNING");
        assertThat(node.get("pipeline")).isEqualTo(true);
        assertThat(node.get("tenants")).isEqualTo(2);
        assertThat(map(node.get("stats"))).containsEntry("dead", 3).containsEntry("pending", 0)
                .containsKeys("scheduled", "inflight", "quarantined", "bytes", "archivePending");
        Map<String, Object> top = map(node.get("topTenants"));
        assertThat(top).containsKeys("byOldestDue", "byFailureRate");
        assertThat(map(node.get("held"))).isInstanceOf(Map.class);

        REFUSE_BAD.set(false);
        badSettled = new CountDownLatch(3);
        HttpResponse<String> replay = post("replay", "{\"tenant\":\"bad\"}");
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(json(replay)).containsEntry("tenant", "bad").containsEntry("match", "MATCHED")
                .containsEntry("revived", 3).containsEntry("skippedNewer", 0).containsEntry("skippedGone", 0);
        assertThat(badSettled.await(60, TimeUnit.SECONDS)).as("the replayed letters are delivered").isTrue();
        assertThat(queue.stats().dead()).isZero();
        assertThat(queue.stats().pending()).isZero();

        queue.disableEndpoint("good", 0);
        assertThat(queue.endpoints("good", 10)).extracting(e -> e.state()).containsExactly(EndpointState.DISABLED);
        HttpResponse<String> enable = post("enable", "{\"tenant\":\"good\",\"sink\":0}");
        assertThat(enable.statusCode()).isEqualTo(200);
        assertThat(json(enable)).containsEntry("tenant", "good").containsEntry("sink", 0)
                .containsEntry("state", "ACTIVE");
        assertThat(queue.endpoints("good", 10)).extracting(e -> e.state()).doesNotContain(EndpointState.DISABLED);

        assertThat(post("replay", "{\"hookId\":\"b0\"}").statusCode()).as("a hook id needs its tenant")
                .isEqualTo(400);
        assertThat(post("purge", "{\"tenant\":\"bad\"}").statusCode()).isEqualTo(400);
    }

    @Test
    void theEndpointNeedsTheActuatorAndIsOnlyMadeWhenExposed() {
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AnkusaAutoConfiguration.class,
                        AnkusaEndpointAutoConfiguration.class))
                .withPropertyValues("ankusa.directory=" + DIRECTORY.resolve("runner"),
                        "ankusa.housekeeping.interval=0s",
                        "ankusa.pipeline.mode=ingest-only");
        runner.withPropertyValues("management.endpoints.web.exposure.include=ankusa")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(AnkusaEndpoint.class));
        runner.run(context -> assertThat(context).as("not exposed").doesNotHaveBean(AnkusaEndpoint.class));
        runner.withPropertyValues("management.endpoints.web.exposure.include=ankusa")
                .withClassLoader(new FilteredClassLoader(
                        org.springframework.boot.actuate.endpoint.annotation.Endpoint.class))
                .run(context -> assertThat(context).as("no actuator").doesNotHaveBean(AnkusaEndpoint.class));
    }

    private static Hook hook(String tenant, String id) {
        return Hook.builder().id(id).sourceId("test").tenantId(tenant).payload("{}").sinks(0).build();
    }

    private HttpResponse<String> get() throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri("")).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String action, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri("/" + action)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + "/actuator/ankusa" + path);
    }

    private static Map<String, Object> json(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JsonParserFactory.getJsonParser().parseMap(response.body());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        assertThat(value).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("ankusa-endpoint");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
