package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.EndpointDisableReason;
import io.ankusa.api.EndpointSettings;
import io.ankusa.api.EndpointStatus;
import io.ankusa.api.events.EndpointState;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.WebhookSecret;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Sinks;
import io.ankusa.keys.Prefixes;
import io.ankusa.queue.ledger.DeadEntry;
import io.ankusa.tests.dispatch.DispatchFixture;
import io.ankusa.tests.support.RecordingStore;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Endpoint state and back-pressure against a real HTTP server on
 * 127.0.0.1, on both backends: a 410 disables the endpoint in the store, a restart keeps it
 * disabled and re-enabling sends its waiting rows; an endpoint failing longer than
 * {@code endpoint.disable-after} is disabled; {@code Retry-After} pauses the endpoint; the circuit
 * breaker opens and probes; the per-endpoint concurrency limit holds; a disabled endpoint's rows
 * cost no reads per tick; with {@code endpoint.disabled-policy = dead-letter} they are dead
 * letters. Time moves only on the fixture's hand-moved clock.
 */
class EndpointStateTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    /** Path → the status it answers now. */
    private final Map<String, AtomicInteger> status = new ConcurrentHashMap<>();
    /** Path → the Retry-After it sends with a non-2xx answer, if any. */
    private final Map<String, String> retryAfter = new ConcurrentHashMap<>();
    /** Every request, in arrival order: path and webhook-id. */
    private final List<String> requests = new CopyOnWriteArrayList<>();
    /** "/slow": requests in progress and the most at once, by the hook id's tenant prefix. */
    private final Map<String, AtomicInteger> slowNow = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> slowMost = new ConcurrentHashMap<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile CountDownLatch slowArrivals = new CountDownLatch(0);

    @BeforeEach
    void startReceiver() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stopReceiver() {
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    private void handle(HttpExchange e) throws IOException {
        e.getRequestBody().readAllBytes();
        String path = e.getRequestURI().getPath();
        String id = e.getRequestHeaders().getFirst("webhook-id");
        requests.add(path + " " + id);
        if (path.equals("/slow")) {
            String tenant = id.substring(0, id.indexOf('-'));
            int now = slowNow.computeIfAbsent(tenant, t -> new AtomicInteger()).incrementAndGet();
            slowMost.computeIfAbsent(tenant, t -> new AtomicInteger()).accumulateAndGet(now, Math::max);
            slowArrivals.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            slowNow.get(tenant).decrementAndGet();
        }
        int code = status.computeIfAbsent(path, p -> new AtomicInteger(200)).get();
        if (code >= 300 && retryAfter.containsKey(path)) {
            e.getResponseHeaders().add("Retry-After", retryAfter.get(path));
        }
        e.sendResponseHeaders(code, -1);
        e.close();
    }

    /** The requests that reached {@code path}, by webhook-id, in order. */
    private List<String> idsAt(String path) {
        return requests.stream().filter(r -> r.startsWith(path + " ")).map(r -> r.substring(path.length() + 1)).toList();
    }

    private HttpSink sink(String path, DispatchFixture f) {
        return sink(path, f, Set.of());
    }

    /** A sink to the local receiver's {@code path} that dead-letters {@code deadStatuses} at once. */
    private HttpSink sink(String path, DispatchFixture f, Set<Integer> deadStatuses) {
        return HttpSink.builder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path),
                        WebhookSecret.parse(SECRET))
                .guard(AddressGuard.builder().allowRange("127.0.0.1").build()) // the local receiver, on purpose
                .deadStatuses(deadStatuses).requestTimeout(Duration.ofSeconds(30)).clock(f.clock()).build();
    }

    /** Sink n sends to {@code paths[n]}. */
    private Pipeline pipeline(DispatchFixture f, String... paths) {
        Sinks.Builder sinks = Sinks.builder();
        for (int i = 0; i < paths.length; i++) {
            sinks.sink(i, sink(paths[i], f));
        }
        return f.pipeline(sinks.build(), b -> b.random(new java.util.SplittableRandom(7)).concurrency(256));
    }

    private static UnaryOperator<io.ankusa.api.QueueConfig.Builder> endpoints(EndpointSettings settings) {
        return b -> b.endpoints(settings);
    }

    private static EndpointStatus endpoint(DispatchFixture f, String tenant, int sink) {
        return f.queue().endpoints(tenant, 100).stream().filter(e -> e.sink() == sink).findFirst()
                .orElseThrow(() -> new AssertionError("no stored state for " + tenant + "/" + sink));
    }

    /** A breaker that opens after 3 failures for 10 s, with no concurrency limit. */
    private static final EndpointSettings BREAKER_AFTER_3 = EndpointSettings.DEFAULTS.withBreaker(3, Duration.ofSeconds(10))
            .withMaxConcurrency(Integer.MAX_VALUE);

    /** Three of acme's hooks to sink 0 fail at {@code /error}: the breaker ({@link #BREAKER_AFTER_3}) opens. */
    private void openTheBreaker(DispatchFixture f, Pipeline p) {
        for (int i = 0; i < 3; i++) {
            f.ingest("acme-" + i, "acme", 0);
        }
        tick(p);
        assertThat(idsAt("/error")).as("three failures open the breaker").hasSize(3);
    }

    /** With the breaker closed, every row still owed goes out within three retry intervals. */
    private static void assertTheRestGoOut(DispatchFixture f, Pipeline p) {
        for (int s = 0; s < 3 && f.queue().stats().pending() + f.queue().stats().scheduled() > 0; s++) {
            f.clock().advance(10 * 60_000);
            tick(p);
        }
        assertThat(f.queue().stats().pending() + f.queue().stats().scheduled()).as("all delivered").isZero();
        f.assertConsistent();
    }

    private static TickReport tick(Pipeline p) {
        return DispatchFixture.await(p.tick());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void goneDisablesTheEndpoint(String backend) {
        status.put("/gone", new AtomicInteger(410));
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("acme-1", "acme", 0, 1);
            try (Pipeline p = pipeline(f, "/gone", "/ok")) {
                TickReport first = tick(p);
                assertThat(first.delivered()).as("/ok").isEqualTo(1);
                assertThat(first.dead()).as("the 410'd delivery waits, it is not dead").isZero();

                EndpointStatus disabled = endpoint(f, "acme", 0);
                assertThat(disabled.state()).isEqualTo(EndpointState.DISABLED);
                assertThat(disabled.reason()).contains(EndpointDisableReason.GONE);
                assertThat(disabled.disabledSince()).contains(Instant.ofEpochMilli(f.now()));
                assertThat(f.queue().endpoints("acme", 100)).as("sink 1 delivered: nothing stored").hasSize(1);

                // The receiver is back, but the endpoint stays disabled until an operator says so.
                status.get("/gone").set(200);
                f.ingest("acme-2", "acme", 0);
                f.ingest("beta-1", "beta", 0); // another tenant's endpoint on the same URL: not disabled
                for (int t = 0; t < 5; t++) {
                    f.clock().advance(1_000);
                    tick(p);
                }
                assertThat(idsAt("/gone")).containsExactly("acme-1", "beta-1");
            }
            AuditEntry audit = f.queue().auditTrail(1).get(0);
            assertThat(audit.action()).isEqualTo(AuditAction.ENDPOINT_DISABLE);
            assertThat(audit.tenantId()).isEqualTo("acme");
            assertThat(audit.counts()).containsEntry("sink", 0L).containsEntry("gone", 1L);

            f.reopen();
            assertThat(endpoint(f, "acme", 0).state()).as("a restart keeps it disabled").isEqualTo(EndpointState.DISABLED);
            try (Pipeline p = pipeline(f, "/gone", "/ok")) {
                f.clock().advance(1_000);
                assertThat(tick(p).claimed()).isZero();
                assertThat(idsAt("/gone")).containsExactly("acme-1", "beta-1");

                EndpointStatus enabled = f.queue().enableEndpoint("acme", 0);
                assertThat(enabled.state()).isEqualTo(EndpointState.ACTIVE);
                TickReport next = tick(p);
                assertThat(next.delivered()).as("the waiting rows go out on the next tick").isEqualTo(2);
                assertThat(idsAt("/gone")).containsExactlyInAnyOrder("acme-1", "beta-1", "acme-1", "acme-2");
                assertThat(idsAt("/gone").subList(0, 2)).containsExactly("acme-1", "beta-1");
            }
            assertThat(f.queue().endpoints(100)).as("enabled and delivered: nothing stored").isEmpty();
            assertThat(f.queue().auditTrail(1).get(0).action()).isEqualTo(AuditAction.ENDPOINT_ENABLE);
            assertThat(f.queue().stats().pending() + f.queue().stats().scheduled()).isZero();
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anEndpointFailingLongerThanTheDisableLimitIsDisabled(String backend) {
        status.put("/error", new AtomicInteger(500));
        status.put("/flaky", new AtomicInteger(500));
        EndpointSettings settings = EndpointSettings.DEFAULTS.withDisableAfter(Duration.ofHours(1))
                .withBreaker(1_000, Duration.ofSeconds(30)).withMaxConcurrency(Integer.MAX_VALUE);
        try (DispatchFixture f = DispatchFixture.open(backend, dir, endpoints(settings));
                Pipeline p = pipeline(f, "/error", "/flaky")) {
            long start = f.now();
            f.ingest("acme-1", "acme", 0, 1);
            tick(p);
            EndpointStatus failing = endpoint(f, "acme", 0);
            assertThat(failing.state()).isEqualTo(EndpointState.ACTIVE);
            assertThat(failing.failingSince()).contains(Instant.ofEpochMilli(start));
            assertThat(endpoint(f, "acme", 1).failingSince()).contains(Instant.ofEpochMilli(start));

            // A success clears the failure history: nothing is stored for sink 1 any more.
            status.get("/flaky").set(200);
            f.clock().advance(30 * 60_000);
            f.ingest("acme-2", "acme", 0, 1);
            tick(p);
            assertThat(f.queue().endpoints("acme", 100)).extracting(EndpointStatus::sink).containsExactly(0);
            assertThat(endpoint(f, "acme", 0).state()).as("30 min of failing").isEqualTo(EndpointState.ACTIVE);

            f.clock().advance(30 * 60_000 - 1);
            f.ingest("acme-3", "acme", 0);
            tick(p);
            assertThat(endpoint(f, "acme", 0).state()).as("one ms short of the limit").isEqualTo(EndpointState.ACTIVE);

            f.clock().advance(1);
            f.ingest("acme-4", "acme", 0);
            tick(p);
            EndpointStatus disabled = endpoint(f, "acme", 0);
            assertThat(disabled.state()).isEqualTo(EndpointState.DISABLED);
            assertThat(disabled.reason()).contains(EndpointDisableReason.FAILING);
            assertThat(disabled.disabledSince()).contains(Instant.ofEpochMilli(f.now()));
            assertThat(disabled.failingSince()).contains(Instant.ofEpochMilli(start));
            assertThat(f.queue().auditTrail(1).get(0).counts()).containsEntry("sink", 0L).containsEntry("failing", 1L);

            int before = idsAt("/error").size();
            for (int t = 0; t < 10; t++) {
                f.clock().advance(60_000);
                tick(p);
            }
            assertThat(idsAt("/error")).as("nothing is sent to a disabled endpoint").hasSize(before);
            assertThat(f.queue().stats().dead()).as("its deliveries wait").isZero();
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void retryAfterPausesTheEndpoint(String backend) {
        status.put("/busy", new AtomicInteger(429));
        retryAfter.put("/busy", "30");
        try (DispatchFixture f = DispatchFixture.open(backend, dir); Pipeline p = pipeline(f, "/busy", "/ok")) {
            long start = f.now();
            f.ingest("acme-1", "acme", 0);
            assertThat(tick(p).retried()).isEqualTo(1);
            status.get("/busy").set(200);

            f.ingest("acme-2", "acme", 0, 1);
            f.ingest("acme-3", "acme", 0);
            f.ingest("beta-1", "beta", 0); // the same URL, another tenant: another endpoint
            f.clock().advance(10_000);
            tick(p);
            assertThat(idsAt("/ok")).as("the tenant's other endpoint keeps flowing").containsExactly("acme-2");
            assertThat(idsAt("/busy")).as("only the other tenant reaches the paused URL")
                    .containsExactly("acme-1", "beta-1");

            f.clock().advance(start + 30_000 - 1 - f.now());
            tick(p);
            assertThat(idsAt("/busy")).as("nothing of the paused endpoint before its Retry-After")
                    .containsExactly("acme-1", "beta-1");

            f.clock().advance(1);
            TickReport resumed = tick(p);
            assertThat(resumed.delivered()).isEqualTo(3);
            assertThat(idsAt("/busy")).containsExactlyInAnyOrder("acme-1", "beta-1", "acme-1", "acme-2", "acme-3");
            assertThat(f.queue().endpoints(100)).as("delivered again: nothing stored").isEmpty();
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theBreakerOpensAndProbes(String backend) {
        status.put("/error", new AtomicInteger(500));
        try (DispatchFixture f = DispatchFixture.open(backend, dir, endpoints(BREAKER_AFTER_3));
                Pipeline p = pipeline(f, "/error", "/ok")) {
            openTheBreaker(f, p);
            for (int i = 3; i < 20; i++) {
                f.ingest("acme-" + i, "acme", 0);
            }
            f.ingest("acme-ok", "acme", 1);

            // 60 s in steps of 1 s: rows are due all along, but the open breaker lets one probe
            // through per 10 s interval, and the probe fails.
            List<Integer> perInterval = new ArrayList<>();
            int seen = idsAt("/error").size();
            for (int interval = 0; interval < 6; interval++) {
                for (int s = 0; s < 10; s++) {
                    f.clock().advance(1_000);
                    tick(p);
                }
                perInterval.add(idsAt("/error").size() - seen);
                seen = idsAt("/error").size();
            }
            assertThat(perInterval).as("requests per interval while open").containsOnly(1);
            assertThat(idsAt("/ok")).as("the tenant's other endpoint is not held").containsExactly("acme-ok");

            // The receiver recovers: the next probe succeeds, the breaker closes and the rest go out.
            status.get("/error").set(200);
            f.clock().advance(10_000);
            tick(p);
            assertTheRestGoOut(f, p);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aProbeAnsweredWithADeadLetterLetsTheNextProbeGo(String backend) {
        // A dead outcome (here a status configured as permanent) is a verdict on one delivery: it
        // must neither close the breaker nor leave it waiting for a probe that has been answered.
        status.put("/error", new AtomicInteger(500));
        try (DispatchFixture f = DispatchFixture.open(backend, dir, endpoints(BREAKER_AFTER_3));
                Pipeline p = f.pipeline(Sinks.builder().sink(0, sink("/error", f, Set.of(400))).build(),
                        b -> b.random(new java.util.SplittableRandom(7)).concurrency(256))) {
            openTheBreaker(f, p);
            for (int i = 3; i < 8; i++) {
                f.ingest("acme-" + i, "acme", 0);
            }
            status.get("/error").set(400);
            f.clock().advance(10_000);
            tick(p);
            assertThat(idsAt("/error")).as("one probe once the interval has passed").hasSize(4);
            assertThat(f.queue().stats().dead()).as("the probe's answer is a dead letter").isEqualTo(1);

            status.get("/error").set(200);
            f.clock().advance(1_000);
            tick(p);
            assertThat(idsAt("/error")).as("the dead probe is answered: the next one goes").hasSize(5);
            assertTheRestGoOut(f, p);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void thePerEndpointConcurrencyLimitHolds(String backend) throws Exception {
        EndpointSettings settings = EndpointSettings.DEFAULTS.withMaxConcurrency(4);
        try (DispatchFixture f = DispatchFixture.open(backend, dir, endpoints(settings));
                Pipeline p = pipeline(f, "/slow")) {
            for (int i = 0; i < 20; i++) {
                f.ingest("acme-" + i, "acme", 0);
            }
            for (int i = 0; i < 6; i++) {
                f.ingest("beta-" + i, "beta", 0);
            }
            slowArrivals = new CountDownLatch(8);
            List<java.util.concurrent.CompletionStage<TickReport>> ticks = new ArrayList<>();
            ticks.add(p.tick());
            assertThat(slowArrivals.await(60, TimeUnit.SECONDS)).as("4 + 4 requests arrive").isTrue();
            for (int t = 0; t < 5; t++) {
                ticks.add(p.tick()); // each finds both endpoints full
            }
            assertThat(ticks.subList(1, ticks.size())).allSatisfy(t -> assertThat(t.toCompletableFuture().isDone()).isTrue());
            assertThat(slowMost.get("acme").get()).isEqualTo(4);
            assertThat(slowMost.get("beta").get()).isEqualTo(4);

            release.countDown();
            ticks.forEach(DispatchFixture::await);
            for (int t = 0; t < 20 && f.queue().stats().pending() > 0; t++) {
                tick(p);
            }
            assertThat(idsAt("/slow")).hasSize(26);
            assertThat(slowMost.get("acme").get()).as("never more than the limit at once").isEqualTo(4);
            assertThat(slowMost.get("beta").get()).isEqualTo(4);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDisabledEndpointsWaitingRowsAreNotReadAgainEveryTick(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir); Pipeline p = pipeline(f, "/ok", "/ok")) {
            f.ingest("acme-0", "acme", 1);
            tick(p);
            f.queue().disableEndpoint("acme", 0);
            for (int i = 0; i < 50; i++) {
                f.ingest("acme-w" + i, "acme", 0);
            }
            f.clock().advance(1_000);
            assertThat(tick(p).claimed()).isZero();
            long ord = f.ord("acme");

            // Ten seconds on, ticks go by: the lane is parked, its rows are not read.
            f.clock().advance(10_000);
            f.recorder().clear();
            for (int t = 0; t < 20; t++) {
                f.clock().advance(200);
                assertThat(tick(p).claimed()).isZero();
            }
            assertThat(dueScans(f, ord)).as("scans of the tenant's due rows over 20 ticks").isZero();

            // A new row of another endpoint of the tenant goes out on the next tick, in one read after the parked rows.
            f.ingest("acme-new", "acme", 1);
            f.recorder().clear();
            assertThat(tick(p).delivered()).isEqualTo(1);
            assertThat(dueScans(f, ord)).as("reads of the tenant's due rows for the new row").isLessThanOrEqualTo(2);
            assertThat(idsAt("/ok")).containsExactly("acme-0", "acme-new");

            f.queue().enableEndpoint("acme", 0);
            assertThat(tick(p).delivered()).as("enabled: the 50 waiting rows go out").isEqualTo(50);
            f.assertConsistent();
        }
    }

    /** Scans of tenant {@code ord}'s due range since the recorder was cleared. */
    private static long dueScans(DispatchFixture f, long ord) {
        return f.recorder().calls("scan").stream().map(RecordingStore.Call::range).flatMap(Optional::stream)
                .map(r -> r.from()).filter(from -> from.length >= 5 && from[0] == Prefixes.DUE
                        && (ByteBuffer.wrap(from, 1, 4).getInt() & 0xFFFF_FFFFL) == ord)
                .count();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void withDisabledPolicyDeadLetterADisabledEndpointsRowsAreDeadLetters(String backend) {
        EndpointSettings settings = EndpointSettings.DEFAULTS.withDisabledPolicy(EndpointSettings.DisabledPolicy.DEAD_LETTER);
        status.put("/gone", new AtomicInteger(410));
        try (DispatchFixture f = DispatchFixture.open(backend, dir, endpoints(settings)); Pipeline p = pipeline(f, "/gone")) {
            f.ingest("acme-1", "acme", 0);
            assertThat(tick(p).dead()).as("the 410 itself").isEqualTo(1);
            f.ingest("acme-2", "acme", 0);
            assertThat(tick(p).dead()).as("not sent: dead-lettered at once").isEqualTo(1);
            assertThat(idsAt("/gone")).containsExactly("acme-1");
            List<DeadEntry> dead = f.ledger().deadEntries(f.ord("acme"), Optional.empty(), 10);
            assertThat(dead).extracting(DeadEntry::hookId).containsExactly("acme-1", "acme-2");
            assertThat(f.queue().deadLetters(io.ankusa.api.DeadLetterQuery.all().limit(10)).letters())
                    .extracting(io.ankusa.api.DeadLetter::lastError)
                    .anySatisfy(e -> assertThat(e).startsWith("endpoint_disabled"))
                    .anySatisfy(e -> assertThat(e).startsWith("endpoint_gone"));
            f.assertConsistent();
        }
    }
}
