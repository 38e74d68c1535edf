package io.ankusa.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ankusa serve} as a separate process on the module path: it serves the store's admin API on
 * 127.0.0.1 with a generated owner-only token, answers a route with that token (and refuses one
 * without), reads the same figures as {@code --url}, and on {@code SIGTERM} closes the server and the
 * store, which then opens again.
 */
class ServeCommandTest {

    private static final Pattern SERVING = Pattern.compile("at (http://127\\.0\\.0\\.1:\\d+/)v1/$");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void serveAnswersWithItsTokenAndClosesTheStoreOnSigterm(String backend) throws Exception {
        Path store = dir.resolve("store-" + backend);
        QueueConfig config = QueueConfig.builder(store).backend(backend).build();
        try (Queue queue = Queue.open(config)) {
            queue.ingest(Hook.builder().id("h1").sourceId("test").tenantId("acme").payload("{}").sinks(0).build())
                    .join();
        }
        CliLauncher cli = new CliLauncher();
        Path producerToken = Files.writeString(dir.resolve("producer-token-" + backend),
                "producer-token-0123456789\n");

        Process serve = cli.start("serve", "--store", store.toString(), "--backend", backend, "--port", "0",
                "--ingest-token-file", producerToken.toString());
        try {
            CompletableFuture<String> url = CompletableFuture.supplyAsync(() -> servingUrl(serve));
            String base = url.get(60, TimeUnit.SECONDS);
            Path tokenFile = store.resolve("admin-token");
            String token = Files.readString(tokenFile).strip();
            HttpClient http = HttpClient.newHttpClient();

            HttpResponse<String> stats = http.send(HttpRequest.newBuilder(URI.create(base + "v1/stats"))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(URI.create(base + "v1/stats")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> ingested = http.send(HttpRequest.newBuilder(URI.create(base + "v1/hooks"))
                    .header("Authorization", "Bearer producer-token-0123456789")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"tenant\":\"globex\",\"id\":\"e1\","
                            + "\"source\":\"edge\",\"payload\":\"{}\",\"sinks\":[0]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> operatorIngest = http.send(HttpRequest.newBuilder(URI.create(base + "v1/hooks"))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"tenant\":\"globex\",\"id\":\"e2\","
                            + "\"source\":\"edge\",\"payload\":\"{}\",\"sinks\":[0]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            CliLauncher.Result overUrl = cli.run("stats", "--tenant", "acme", "--json", "--url", base, "--token-file",
                    tokenFile.toString());

            assertThat(ingested.statusCode()).as(ingested.body()).isEqualTo(201);
            assertThat(operatorIngest.statusCode()).as("an operator token is not a producer's").isEqualTo(401);
            assertThat(stats.statusCode()).as(stats.body()).isEqualTo(200);
            assertThat(stats.body()).contains("\"tenantsSeen\":1", "\"pending\":1");
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(overUrl.exitCode()).as(overUrl.err()).isZero();
            assertThat(overUrl.out()).isEqualTo("{\"tenant\":\"acme\",\"pending\":1,\"scheduled\":0,\"inflight\":0,"
                    + "\"dead\":0,\"bytes\":" + bytes(overUrl.out()) + ",\"quarantined\":0}\n");
            assertThat(Files.getPosixFilePermissions(tokenFile))
                    .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
        } finally {
            serve.destroy();
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).as("serve ends on SIGTERM").isTrue();
        }
        // The shutdown hook closed the store: it opens again, with what it held.
        try (Queue queue = Queue.open(config)) {
            assertThat(queue.stats().pending()).as("acme's hook and the one ingested at the edge").isEqualTo(2);
        }
    }

    private static String bytes(String json) {
        Matcher m = Pattern.compile("\"bytes\":(\\d+)").matcher(json);
        assertThat(m.find()).as(json).isTrue();
        return m.group(1);
    }

    /**
     * Reads serve's stdout until it prints the URL it serves at. The stream stays open (the process
     * still writes to it); destroying the process ends it.
     */
    private static String servingUrl(Process serve) {
        List<String> seen = new ArrayList<>();
        BufferedReader out = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
        try {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                seen.add(line);
                Matcher m = SERVING.matcher(line);
                if (m.find()) {
                    return m.group(1);
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        throw new AssertionError("serve ended without a URL: " + seen);
    }
}
