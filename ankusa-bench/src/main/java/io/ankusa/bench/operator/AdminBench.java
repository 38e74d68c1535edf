package io.ankusa.bench.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ankusa.admin.AccessPolicy;
import io.ankusa.admin.AdminServer;
import io.ankusa.admin.Role;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.Settlement;
import io.ankusa.tests.queue.QueueUnderTest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The admin bench: what the admin API and the dashboard cost on a large node, and what watching and
 * repairing it costs the node's drain.
 *
 * <p>Per backend, a node holds {@code ankusa.bench.adminTenants} tenants (default 10<sup>5</sup>) with
 * {@code ankusa.bench.adminRows} due rows over them (default 10<sup>6</sup>), and one tenant,
 * {@code replayed}, with {@code ankusa.bench.adminDead} dead letters (default 10<sup>5</sup>).
 * <ol>
 *   <li>Latency: with the pipeline not ticking, each route and page is asked 100 times over loopback
 *       (after one warm-up call); the table gives p50 and p99 of the client's time, which bounds the
 *       server's. It fails when a p99 passes 200 ms.</li>
 *   <li>Drain: the pipeline starts (a sink that delivers every other tenant's row at once and
 *       dead-letters the replayed tenant's again, so there is always a DLQ to replay) and the run
 *       alternates windows of 3 s: quiet, then loaded — a bulk replay job of the replayed tenant's dead
 *       letters ({@code POST /v1/replays}) and a dashboard reading the overview's routes every second.
 *       The other tenants' delivered rows per second are compared, median of the loaded windows
 *       against the median of the quiet ones; it fails below 0.90.</li>
 * </ol>
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.only=AdminBench
 * </pre>
 */
public final class AdminBench {

    private static final String TOKEN = "bench-operator-token-0123456789";
    private static final String REPLAYED = "replayed";
    private static final int REQUESTS = 100;
    private static final double P99_LIMIT_MS = 200;
    private static final double DRAIN_FLOOR = 0.90;
    private static final Duration WINDOW = Duration.ofSeconds(3);
    private static final int WINDOW_PAIRS = 4;

    private AdminBench() {
    }

    /**
     * Runs the bench on both backends (or {@code -Dankusa.bench.backends=rocksdb}).
     *
     * @param args ignored
     * @throws Exception when the bench cannot run
     */
    public static void main(String[] args) throws Exception {
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir", "target/bench")))
                .resolve("admin-" + System.nanoTime());
        String only = System.getProperty("ankusa.bench.backends", "");
        List<String> backends = only.isBlank() ? List.of("rocksdb", "lmdb") : Arrays.asList(only.split(","));
        int tenants = Integer.getInteger("ankusa.bench.adminTenants", 100_000);
        int rows = Integer.getInteger("ankusa.bench.adminRows", 1_000_000);
        int dead = Integer.getInteger("ankusa.bench.adminDead", 100_000);
        StringBuilder latency = new StringBuilder("| backend | route | p50 ms | p99 ms |\n|---|---|---:|---:|\n");
        StringBuilder drain = new StringBuilder(
                "| backend | quiet rows/s | loaded rows/s | loaded / quiet | dead letters replayed |\n"
                        + "|---|---:|---:|---:|---:|\n");
        List<String> failures = new ArrayList<>();
        for (String backend : backends) {
            run(root.resolve(backend), backend, tenants, rows, dead, latency, drain, failures);
        }
        System.out.printf(Locale.ROOT, "Admin bench: %d tenants, %d due rows, %d dead letters of one tenant%n%n",
                tenants, rows, dead);
        System.out.println(latency);
        System.out.println(drain);
        if (!failures.isEmpty()) {
            failures.forEach(System.err::println);
            System.exit(1);
        }
    }

    private static void run(Path dir, String backend, int tenants, int rows, int dead, StringBuilder latency,
            StringBuilder drain, List<String> failures) throws Exception {
        QueueConfig config = QueueConfig.builder(dir).backend(backend).build();
        try (Queue queue = Queue.open(config)) {
            Receipt sample = seed(queue, tenants, rows, dead);
            AtomicBoolean deadAgain = new AtomicBoolean(true);
            AtomicLong othersDelivered = new AtomicLong();
            try (Pipeline pipeline = Pipeline.builder(queue, d -> {
                if (d.tenantId().equals(REPLAYED) && deadAgain.get()) {
                    return CompletableFuture.completedFuture(SinkOutcome.dead("HTTP 410 (bench)"));
                }
                othersDelivered.incrementAndGet();
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }).manual();
                    AdminServer server = AdminServer.builder(queue).replayer(Replayer.of(queue)).pipeline(pipeline)
                            .accessPolicy(AccessPolicy.tokens(Map.of(TOKEN, Role.OPERATOR))).port(0).build()
                            .start()) {
                Client client = new Client(server.port());
                for (String route : routes(sample)) {
                    double[] cell = latencies(client, route);
                    latency.append(String.format(Locale.ROOT, "| %s | `%s` | %.2f | %.2f |%n", backend, route,
                            cell[0], cell[1]));
                    if (cell[1] > P99_LIMIT_MS) {
                        failures.add(backend + ": " + route + " p99 " + cell[1] + " ms > " + P99_LIMIT_MS + " ms");
                    }
                }
                pipeline.start();
                drain(client, queue, othersDelivered, backend, drain, failures);
                deadAgain.set(false);
            }
        }
    }

    /** The routes and pages a dashboard and an operator use, on the seeded tenant {@code t-00000001}. */
    private static List<String> routes(Receipt sample) {
        String tenant = sample.tenantId();
        long seq = sample.seq();
        return List.of("/v1/stats", "/v1/stats/history", "/v1/tenants?limit=50", "/v1/tenants?prefix=t-0005&limit=50",
                "/v1/tenants?sort=pending&limit=50", "/v1/tenants?sort=dead&limit=50", "/v1/tenants/" + tenant,
                "/v1/tenants/" + tenant + "/hooks/" + seq, "/v1/tenants/" + tenant + "/hooks/" + seq + "/attempts",
                "/v1/tenants/" + REPLAYED, "/v1/tenants/" + REPLAYED + "/dead?limit=50",
                "/v1/dead?limit=50", "/v1/dead?tenant=" + REPLAYED + "&limit=50", "/v1/endpoints", "/v1/quarantine",
                "/v1/audit", "/", "/tenants", "/tenants/" + tenant, "/tenants/" + REPLAYED, "/dead");
    }

    private static double[] latencies(Client client, String route) throws IOException, InterruptedException {
        client.get(route);
        double[] ms = new double[REQUESTS];
        for (int i = 0; i < REQUESTS; i++) {
            long start = System.nanoTime();
            client.get(route);
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return new double[] {ms[REQUESTS / 2], ms[REQUESTS * 99 / 100 - 1]};
    }

    private static void drain(Client client, Queue queue, AtomicLong others, String backend, StringBuilder table,
            List<String> failures) throws Exception {
        double[] quiet = new double[WINDOW_PAIRS];
        double[] loaded = new double[WINDOW_PAIRS];
        long replayed = 0;
        for (int pair = 0; pair < WINDOW_PAIRS; pair++) {
            quiet[pair] = window(others, () -> { });
            String[] job = new String[1];
            AtomicBoolean watching = new AtomicBoolean(true);
            Thread dashboard = new Thread(() -> watch(client, watching), "bench-dashboard");
            loaded[pair] = window(others, () -> {
                job[0] = client.startReplay(REPLAYED);
                dashboard.start();
            });
            watching.set(false);
            dashboard.join();
            replayed += client.cancelReplay(job[0]);
            if (queue.stats().pending() == 0) {
                throw new IllegalStateException("the backlog ran out before the windows did: raise adminRows");
            }
        }
        Arrays.sort(quiet);
        Arrays.sort(loaded);
        double q = (quiet[WINDOW_PAIRS / 2 - 1] + quiet[WINDOW_PAIRS / 2]) / 2;
        double l = (loaded[WINDOW_PAIRS / 2 - 1] + loaded[WINDOW_PAIRS / 2]) / 2;
        table.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.2f | %d |%n", backend, q, l, l / q, replayed));
        if (l / q < DRAIN_FLOOR) {
            failures.add(backend + ": the other tenants' drain fell to " + l / q + " of its quiet rate while watched"
                    + " and replayed (floor " + DRAIN_FLOOR + ")");
        }
        if (replayed == 0) {
            failures.add(backend + ": the bulk replay replayed nothing in the loaded windows");
        }
    }

    /** Delivered rows per second of the other tenants over one window, {@code start} run as it opens. */
    private static double window(AtomicLong others, Runnable start) throws InterruptedException {
        long from = others.get();
        long t0 = System.nanoTime();
        start.run();
        Thread.sleep(WINDOW.toMillis());
        return (others.get() - from) / ((System.nanoTime() - t0) / 1e9);
    }

    /** A dashboard left open, refreshing the overview's reads every second (more often than the page does). */
    private static void watch(Client client, AtomicBoolean watching) {
        try {
            while (watching.get()) {
                client.get("/v1/stats");
                client.get("/v1/stats/history");
                client.get("/v1/tenants?sort=pending&limit=10");
                Thread.sleep(1_000);
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("the dashboard's reads failed", e);
        }
    }

    /** Ingests {@code rows} hooks over {@code tenants} and {@code dead} dead letters of the replayed tenant. */
    private static Receipt seed(Queue queue, int tenants, int rows, int dead) {
        List<CompletableFuture<Receipt>> futures = new ArrayList<>();
        Receipt sample = null;
        for (int i = 0; i < rows; i++) {
            futures.add(queue.ingest(QueueUnderTest.hook("h" + i, String.format("t-%08d", i % tenants), 0)));
            if (futures.size() == 20_000) {
                sample = sample == null ? QueueUnderTest.await(futures.get(0)) : sample;
                futures.forEach(QueueUnderTest::await);
                futures.clear();
            }
        }
        futures.forEach(QueueUnderTest::await);
        if (sample == null) {
            throw new IllegalArgumentException("adminRows must be at least 20 000");
        }
        for (int i = 0; i < dead; i++) {
            futures.add(queue.ingest(QueueUnderTest.hook("d" + i, REPLAYED, 0)));
            if (futures.size() == 20_000) { // under the writer's queue (65 536 hooks)
                futures.forEach(QueueUnderTest::await);
                futures.clear();
            }
        }
        futures.forEach(QueueUnderTest::await);
        DeliveryLedger ledger = LedgerSource.of(queue).deliveryLedger();
        long ord = LedgerSource.of(queue).tenantDirectory().ord(REPLAYED).orElseThrow();
        List<DueRow> due;
        while (!(due = ledger.dueForTenant(ord, System.currentTimeMillis(), 0, 1_000, Long.MAX_VALUE)).isEmpty()) {
            ledger.settle(ledger.claim(ord, due).claimed().stream()
                    .<Settlement>map(d -> new Settlement.Dead(d, "HTTP 410 (bench)")).toList());
        }
        return sample;
    }

    /** The admin API over loopback with the operator's token and its CSRF token. */
    private static final class Client {

        private static final ObjectMapper JSON = new ObjectMapper();

        private final HttpClient http = HttpClient.newHttpClient();
        private final String base;
        private String csrf;

        Client(int port) {
            this.base = "http://127.0.0.1:" + port;
        }

        String get(String path) throws IOException, InterruptedException {
            HttpResponse<String> response = http.send(request(path).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + path + ": " + response.statusCode() + " " + response.body());
            }
            return response.body();
        }

        String startReplay(String tenant) {
            try {
                return field(post("/v1/replays", "{\"tenant\":\"" + tenant + "\"}", 202), "id");
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("the bulk replay did not start", e);
            }
        }

        /**
         * Cancels job {@code id}, unless it has finished by itself within the window, and answers how many
         * dead letters it had replayed.
         */
        long cancelReplay(String id) throws IOException, InterruptedException {
            String path = "/v1/replays/" + id + "/cancel";
            HttpResponse<String> response = send(path, "{}");
            boolean finished = response.statusCode() == 409
                    && field(response.body(), "error").equals("replay_finished");
            if (response.statusCode() != 200 && !finished) {
                throw new IllegalStateException("POST " + path + ": " + response.statusCode() + " " + response.body());
            }
            return Long.parseLong(field(get("/v1/replays/" + id), "replayed"));
        }

        private HttpResponse<String> send(String path, String body) throws IOException, InterruptedException {
            if (csrf == null) {
                csrf = field(get("/v1/session"), "csrfToken");
            }
            return http.send(request(path).header("Content-Type", "application/json")
                    .header("X-Ankusa-CSRF", csrf).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        private String post(String path, String body, int expected) throws IOException, InterruptedException {
            HttpResponse<String> response = send(path, body);
            if (response.statusCode() != expected) {
                throw new IllegalStateException("POST " + path + ": " + response.statusCode() + " " + response.body());
            }
            return response.body();
        }

        private HttpRequest.Builder request(String path) {
            return HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + TOKEN)
                    .timeout(Duration.ofSeconds(30));
        }

        private static String field(String json, String name) throws IOException {
            JsonNode value = JSON.readTree(json).path(name);
            if (value.isMissingNode() || value.isNull()) {
                throw new IllegalStateException("no " + name + " in " + json);
            }
            return value.asText();
        }
    }
}
