package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import static org.assertj.core.api.Assertions.tuple;

import io.ankusa.api.AttemptQuery;
import io.ankusa.api.DeadLetter;
import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.DeliveryAttempt;
import io.ankusa.api.Hook;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.WebhookSecret;
import io.ankusa.dispatch.report.HeldRows;
import io.ankusa.dispatch.report.TenantDispatch;
import io.ankusa.dispatch.sink.OrderingPolicy;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.dispatch.sink.Sinks;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.OrderGroup;
import io.ankusa.tests.dispatch.DispatchFixture;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Per-key FIFO on both backends, against a real HTTP receiver on 127.0.0.1 that fails at random
 * (seeded): deliveries of one ordering key are attempted one at a time, in ingest order, across
 * retries and a reopen; other keys and tenants are not held up; a stuck head blocks or is skipped
 * as the ordering policy says.
 */
class OrderingTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final RetryPolicy EVERY_SECOND = RetryPolicy.builder().schedule(List.of(Duration.ofSeconds(1)))
            .maxAttempts(1_000).jitter(0).build();

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    /** Per key, every attempt the receiver saw, in arrival order: "id:status". */
    private final Map<String, List<String>> attempts = new ConcurrentHashMap<>();
    /** Per key, the ids answered 200, in order. */
    private final Map<String, List<String>> delivered = new ConcurrentHashMap<>();
    /** Per key, requests being answered now; the most ever at once. */
    private final Map<String, AtomicInteger> open = new ConcurrentHashMap<>();
    private final AtomicInteger mostOpenPerKey = new AtomicInteger();
    private final Random failures = new Random(35);
    private volatile double failureRate = 0.3;
    private final Set<String> alwaysFailing = ConcurrentHashMap.newKeySet();

    @BeforeEach
    void startReceiver() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/in", this::answer);
        server.start();
    }

    @AfterEach
    void stopReceiver() {
        server.stop(0);
        handlers.shutdownNow();
    }

    private void answer(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        String key = exchange.getRequestHeaders().getFirst("x-key");
        String id = exchange.getRequestHeaders().getFirst("webhook-id");
        // Hooks without a key ("-") go at once; only ordered keys count.
        AtomicInteger now = open.computeIfAbsent(key, k -> new AtomicInteger());
        int at = now.incrementAndGet();
        if (!key.equals("-")) {
            mostOpenPerKey.accumulateAndGet(at, Math::max);
        }
        boolean fail;
        synchronized (failures) {
            fail = alwaysFailing.contains(key) || failures.nextDouble() < failureRate;
        }
        int status = fail ? 500 : 200;
        attempts.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(id + ":" + status);
        if (!fail) {
            delivered.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(id);
        }
        now.decrementAndGet();
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    private HttpSink http(DispatchFixture f) {
        return HttpSink.builder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/in"),
                        WebhookSecret.parse(SECRET))
                .guard(AddressGuard.builder().allowRange("127.0.0.1").build()) // the local receiver, on purpose
                .requestTimeout(Duration.ofSeconds(30)).clock(f.clock()).build();
    }

    private static Hook hook(String id, String tenant, String key) {
        Hook.Builder b = Hook.builder().id(id).sourceId("shop").tenantId(tenant)
                .header("X-Key", key == null ? "-" : key).payload("{\"id\":\"" + id + "\"}").sinks(0);
        if (key != null) {
            b.orderingKey(key);
        }
        return b.build();
    }

    /** Ticks, one second of the queue clock apart, until nothing is due or {@code ticks} ran. */
    private static int drain(DispatchFixture f, Pipeline pipeline, int ticks) {
        int ran = 0;
        while (ran < ticks && (f.queue().stats().pending() + f.queue().stats().scheduled()) > 0) {
            DispatchFixture.await(pipeline.tick());
            f.clock().advance(1_000);
            ran++;
        }
        return ran;
    }

    /** Ids in ingest order per key: {@code key-i} for i in 0..perKey. */
    private static Map<String, List<String>> ingestInterleaved(DispatchFixture f, String tenant, List<String> keys,
            int perKey) {
        Map<String, List<String>> order = new HashMap<>();
        for (int i = 0; i < perKey; i++) {
            for (String key : keys) {
                String id = tenant + "-" + key + "-" + i;
                f.ingest(hook(id, tenant, key));
                order.computeIfAbsent(key, k -> new ArrayList<>()).add(id);
            }
        }
        return order;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void deliveriesWithOneOrderingKeyArriveInIngestOrder(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            Map<String, List<String>> order = ingestInterleaved(f, "acme", List.of("order-1", "order-2", "order-3"), 12);
            order.putAll(ingestInterleaved(f, "globex", List.of("order-1"), 12));
            try (HttpSink sink = http(f);
                 Pipeline pipeline = f.pipeline(Sinks.builder().sink(0, sink).build(),
                         b -> b.retryPolicy(EVERY_SECOND).random(new java.util.SplittableRandom(7)))) {
                drain(f, pipeline, 2_000);
            }
            // Keys are per tenant: globex's order-1 is not acme's.
            Map<String, List<String>> byKey = new HashMap<>();
            order.forEach((key, ids) -> ids.forEach(id -> byKey.computeIfAbsent(id.substring(0, id.lastIndexOf('-')),
                    k -> new ArrayList<>()).add(id)));
            for (Map.Entry<String, List<String>> e : byKey.entrySet()) {
                String key = e.getKey().substring(e.getKey().indexOf('-') + 1);
                List<String> got = delivered.get(key).stream().filter(id -> id.startsWith(e.getKey() + "-")).toList();
                assertThat(got).as("delivered in ingest order: " + e.getKey()).isEqualTo(e.getValue());
                List<String> tried = attempts.get(key).stream().filter(a -> a.startsWith(e.getKey() + "-")).toList();
                assertAttemptedOneAtATimeInOrder(e.getValue(), tried);
            }
            assertThat(attempts.values().stream().mapToLong(l -> l.stream().filter(a -> a.endsWith(":500")).count())
                    .sum()).as("the receiver failed some attempts").isPositive();
            f.assertConsistent();
        }
    }

    /** Every attempt of the i-th hook comes after the (i-1)-th was delivered, and none after its own delivery. */
    private static void assertAttemptedOneAtATimeInOrder(List<String> ids, List<String> tried) {
        int head = 0;
        for (String attempt : tried) {
            String id = attempt.substring(0, attempt.lastIndexOf(':'));
            assertThat(id).as("attempt %s while %s was the head", attempt, ids.get(head)).isEqualTo(ids.get(head));
            if (attempt.endsWith(":200")) {
                head++;
            }
        }
        assertThat(head).isEqualTo(ids.size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anOrderedKeyDoesNotSlowOtherTenants(String backend) {
        failureRate = 0;
        alwaysFailing.add("stuck");
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            ingestInterleaved(f, "acme", List.of("stuck", "fine"), 20);
            for (int i = 0; i < 40; i++) {
                f.ingest(hook("globex-" + i, "globex", null));
            }
            try (HttpSink sink = http(f);
                 Pipeline pipeline = f.pipeline(Sinks.builder().sink(0, sink).build(),
                         b -> b.retryPolicy(EVERY_SECOND))) {
                int ticks = drainUntil(f, pipeline, () -> delivered.getOrDefault("-", List.of()).size() == 40
                        && delivered.getOrDefault("fine", List.of()).size() == 20, 200);
                // One delivery of a key per tick at most; unordered ones all go in the first tick.
                assertThat(ticks).as("ticks until globex and acme's other key were delivered").isEqualTo(20);
                assertThat(attempts.get("-")).hasSize(40);
                assertThat(attempts.get("stuck")).as("only the stuck head is attempted, once a tick")
                        .allMatch(a -> a.startsWith("acme-stuck-0:")).hasSize(20);
                assertThat(mostOpenPerKey.get()).as("the receiver never had two requests of one key at once")
                        .isEqualTo(1);

                DispatchFixture.await(pipeline.tick()); // the head is retrying: every row behind it waits
                assertThat(pipeline.tenantDispatch("acme")).get().extracting(TenantDispatch::hold)
                        .isEqualTo(TenantDispatch.Hold.ORDERING);
                assertThat(pipeline.dispatchHealth().held()).extracting(HeldRows::hold)
                        .contains(TenantDispatch.Hold.ORDERING);
                assertThat(pipeline.orderedKeys("acme", 10)).singleElement().satisfies(k -> {
                    assertThat(k.orderingKey()).isEqualTo("stuck");
                    assertThat(k.headHookId()).isEqualTo("acme-stuck-0");
                    assertThat(k.waiting()).isEqualTo(20);
                    assertThat(k.blocked()).isTrue();
                    assertThat(k.headAttempts()).as("every attempt the receiver saw of the head")
                            .isEqualTo(attempts.get("stuck").size()).isGreaterThan(20);
                    assertThat(k.headLastError()).contains("http 500");
                });
                assertThat(pipeline.orderedKeys("globex", 10)).isEmpty();
            }
            List<OrderGroup> groups = f.ledger().orderGroups(f.ord("acme"), 10, 1_000);
            assertThat(groups).singleElement().satisfies(g -> {
                assertThat(g.waiting()).isEqualTo(20);
                assertThat(g.headSeq()).isEqualTo(1);
                assertThat(g.headAttempts()).isEqualTo(attempts.get("stuck").size());
            });
            f.assertConsistent();
        }
    }

    private static int drainUntil(DispatchFixture f, Pipeline pipeline, java.util.function.BooleanSupplier done,
            int ticks) {
        int ran = 0;
        while (ran < ticks && !done.getAsBoolean()) {
            DispatchFixture.await(pipeline.tick());
            f.clock().advance(1_000);
            ran++;
        }
        return ran;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aSkippedHeadIsADeadLetterThatSaysWhy(String backend) {
        failureRate = 0;
        alwaysFailing.add("k");
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest(hook("first", "acme", "k"));
            f.ingest(hook("second", "acme", "k"));
            try (HttpSink sink = http(f);
                 Pipeline pipeline = f.pipeline(Sinks.builder().sink(0, sink).build(),
                         b -> b.retryPolicy(EVERY_SECOND).orderingPolicy(OrderingPolicy.block()
                                 .withSink(0, OrderingPolicy.skipAfter(3))))) {
                drainUntil(f, pipeline, () -> attempts.getOrDefault("k", List.of()).size() >= 3, 10);
                assertThat(attempts.get("k")).containsExactly("first:500", "first:500", "first:500");
                alwaysFailing.clear();
                drain(f, pipeline, 10);
                assertThat(delivered.get("k")).as("the key went on without its head").containsExactly("second");

                List<DeadLetter> dead = f.queue().deadLetters(DeadLetterQuery.all()).letters();
                assertThat(dead).singleElement().satisfies(d -> {
                    assertThat(d.hookId()).isEqualTo("first");
                    assertThat(d.attempts()).isEqualTo(3);
                    assertThat(d.lastError()).startsWith(OrderingPolicy.SKIPPED + ": ").contains("http 500");
                });
                // Replayed, the skipped head is delivered after the rest of its key: out of order.
                assertThat(Replayer.of(f.queue()).replayHook("acme", "first").revived()).isEqualTo(1);
                drain(f, pipeline, 10);
                assertThat(delivered.get("k")).containsExactly("second", "first");
            }
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aReplayedSkippedHeadIsRecordedAsOutOfOrder(String backend) {
        failureRate = 0;
        alwaysFailing.add("k");
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest(hook("first", "acme", "k"));
            f.ingest(hook("second", "acme", "k"));
            f.ingest(hook("plain", "acme", null));
            try (HttpSink sink = http(f);
                 Pipeline pipeline = f.pipeline(Sinks.builder().sink(0, sink).build(),
                         b -> b.retryPolicy(EVERY_SECOND).orderingPolicy(OrderingPolicy.skipAfter(2)))) {
                drainUntil(f, pipeline, () -> attempts.getOrDefault("k", List.of()).size() >= 2, 10);
                alwaysFailing.clear();
                drain(f, pipeline, 10);
                assertThat(Replayer.of(f.queue()).replayHook("acme", "first").revived()).isEqualTo(1);
                drain(f, pipeline, 10);
                assertThat(delivered.get("k")).containsExactly("second", "first");
            }
            f.reopen(); // the mark is stored with the entry, not kept in memory
            // Newest first: the replayed attempt, out of order, then the second failed one in order (the
            // replay numbers from 1 again, so its attempt took the slot of the first run's attempt 1).
            assertThat(f.queue().attempts(AttemptQuery.hook("acme", "first")).attempts())
                    .extracting(DeliveryAttempt::attempt, DeliveryAttempt::outOfOrder)
                    .containsExactly(tuple(1, true), tuple(2, false));
            assertThat(f.queue().attempts(AttemptQuery.hook("acme", "second")).attempts())
                    .extracting(DeliveryAttempt::outOfOrder).containsExactly(false);
            assertThat(f.queue().attempts(AttemptQuery.hook("acme", "plain")).attempts())
                    .as("a hook without a key has no order to leave").extracting(DeliveryAttempt::outOfOrder)
                    .containsExactly(false);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHeadInFlightAtACrashIsAttemptedAgainBeforeTheNextOfItsKey(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            for (int i = 0; i < 5; i++) {
                f.ingest(hook("h" + i, "acme", "k"));
            }
            long ord = f.ord("acme");
            List<DueRow> due = f.ledger().dueForTenant(ord, f.now(), 0, 1, Long.MAX_VALUE);
            f.ledger().claim(ord, due); // the head goes out, and the process dies before its settle
            f.clock().advance(5_000);
            f.reopen(); // inflight back to due, now: later than the rows behind it
            assertThat(f.ledger().dueForTenant(ord, f.now(), 0, 10, Long.MAX_VALUE)).extracting(DueRow::seq)
                    .as("the recovered head is due last").containsExactly(2L, 3L, 4L, 5L, 1L);
            List<String> got = new CopyOnWriteArrayList<>();
            Sink recording = d -> {
                got.add(d.hookId());
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            };
            try (Pipeline pipeline = f.pipeline(recording, b -> b)) {
                drain(f, pipeline, 20);
            }
            assertThat(got).containsExactly("h0", "h1", "h2", "h3", "h4");
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void keysAreOrderedPerSinkAndHooksWithoutAKeyAreNot(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest(Hook.builder().id("a").sourceId("s").tenantId("acme").orderingKey("k").sinks(0, 1).build());
            f.ingest(Hook.builder().id("b").sourceId("s").tenantId("acme").orderingKey("k").sinks(0, 1).build());
            f.ingest(Hook.builder().id("c").sourceId("s").tenantId("acme").sinks(0).build());
            Map<Integer, List<String>> bySink = new ConcurrentHashMap<>();
            Set<String> failOnSinkZero = ConcurrentHashMap.newKeySet();
            failOnSinkZero.add("a");
            Sink sink = d -> {
                bySink.computeIfAbsent(d.sink(), s -> new CopyOnWriteArrayList<>()).add(d.hookId());
                return CompletableFuture.completedFuture(d.sink() == 0 && failOnSinkZero.contains(d.hookId())
                        ? SinkOutcome.retry("down") : SinkOutcome.delivered());
            };
            try (Pipeline pipeline = f.pipeline(sink, b -> b.retryPolicy(EVERY_SECOND))) {
                DispatchFixture.await(pipeline.tick());
                f.clock().advance(1_000);
                DispatchFixture.await(pipeline.tick());
                f.clock().advance(1_000);
                // Sink 1 is another order: its key went on while sink 0's head retried; the hook
                // without a key was not held by either.
                assertThat(bySink.get(1)).containsExactly("a", "b");
                assertThat(bySink.get(0)).as("b waits for a on sink 0").containsExactly("a", "c", "a");
                failOnSinkZero.clear();
                drain(f, pipeline, 10);
                assertThat(bySink.get(0)).containsExactly("a", "c", "a", "a", "b");
            }
            f.assertConsistent();
        }
    }
}
