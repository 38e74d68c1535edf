package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.RegistryResolver;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A registered endpoint's own in-flight limit ({@code EndpointSpec.maxInflight()}), applied by the
 * dispatcher: a receiver on 127.0.0.1 holds every request until released and counts, per path, the
 * requests open at once; the endpoint with a limit never has more open than its limit while one of
 * the same tenant without a limit has more, and a limit changed by {@code update} applies to the
 * rows claimed after the change.
 */
class EndpointInflightLimitTest {

    private static final AddressGuard LOCAL = AddressGuard.builder().allowRange("127.0.0.1").build();

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    private final ConcurrentHashMap<String, AtomicInteger> open = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicInteger> mostOpen = new ConcurrentHashMap<>();
    /** Requests wait on it; {@link #release()} opens it and sets a new one for the requests after. */
    private volatile CountDownLatch hold = new CountDownLatch(1);

    @BeforeEach
    void startReceiver() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/", e -> {
            e.getRequestBody().readAllBytes();
            String path = e.getRequestURI().getPath();
            CountDownLatch held = hold;
            int now = count(open, path).incrementAndGet();
            count(mostOpen, path).accumulateAndGet(now, Math::max);
            try {
                held.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            }
            // Closed before the answer: the dispatcher may send the next one once it has the answer.
            count(open, path).decrementAndGet();
            e.sendResponseHeaders(200, -1);
            e.close();
        });
        server.start();
    }

    @AfterEach
    void stopReceiver() {
        hold.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    private static AtomicInteger count(ConcurrentHashMap<String, AtomicInteger> counts, String path) {
        return counts.computeIfAbsent(path, p -> new AtomicInteger());
    }

    private int open(String path) {
        return count(open, path).get();
    }

    private int mostOpen(String path) {
        return count(mostOpen, path).get();
    }

    private void release() {
        CountDownLatch released = hold;
        hold = new CountDownLatch(1);
        released.countDown();
    }

    private EndpointSpec at(String path, int maxInflight) {
        return EndpointSpec.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
                .withId(path.substring(1)).withEventTypes(List.of("invoice.paid")).withLimits(0, maxInflight);
    }

    private static void ingest(Queue queue, int hooks) throws Exception {
        for (int i = 0; i < hooks; i++) {
            queue.ingest(Hook.builder().id("msg_" + i).sourceId("billing").tenantId("acme").eventType("invoice.paid")
                    .payload("{}").build()).get();
        }
    }

    /** Waits until {@code done} holds, for at most 30 s. */
    private static void await(BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        assertThat(done.getAsBoolean()).as(what).isTrue();
    }

    /** Runs one tick, waits until the receiver holds {@code held} requests, releases them and awaits the tick. */
    private TickReport tickHolding(Pipeline pipeline, int held) {
        CompletionStage<TickReport> tick = pipeline.tick();
        await(() -> open.values().stream().mapToInt(AtomicInteger::get).sum() == held, held + " requests held");
        release();
        return DispatchFixture.await(tick);
    }

    @ParameterizedTest(name = "an endpoint's own limit caps its requests open at once [{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anEndpointsOwnLimitCapsItsRequestsOpenAtOnce(String backend) throws Exception {
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).build())) {
            RegistryResolver resolver = RegistryResolver.of(queue, LOCAL);
            EndpointRegistry registry = resolver.registry();
            registry.add("acme", at("/limited", 2));
            registry.add("acme", at("/free", 0));
            ingest(queue, 6);
            try (HttpSink sink = HttpSink.builder(resolver).guard(LOCAL).requestTimeout(Duration.ofSeconds(30))
                    .build(); Pipeline pipeline = Pipeline.builder(queue, sink).manual()) {
                CompletionStage<TickReport> tick = pipeline.tick();
                await(() -> open("/limited") == 2 && open("/free") == 6, "2 requests open to /limited and 6 to /free");
                release();
                assertThat(DispatchFixture.await(tick).claimed()).as("the first tick's claim").isEqualTo(8);
                assertThat(tickHolding(pipeline, 2).claimed()).isEqualTo(2);
                assertThat(tickHolding(pipeline, 2).claimed()).isEqualTo(2);
            }
            assertThat(mostOpen("/limited")).as("most requests open at once to /limited").isEqualTo(2);
            assertThat(mostOpen("/free")).as("most requests open at once to /free").isEqualTo(6);
            assertThat(queue.stats().pending() + queue.stats().scheduled() + queue.stats().inflight()).isZero();
        }
    }

    @ParameterizedTest(name = "a limit changed by update applies to the rows claimed after [{0}]")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aLimitChangedByUpdateAppliesToTheRowsClaimedAfter(String backend) throws Exception {
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).build())) {
            RegistryResolver resolver = RegistryResolver.of(queue, LOCAL);
            EndpointRegistry registry = resolver.registry();
            registry.add("acme", at("/limited", 2));
            ingest(queue, 6);
            try (HttpSink sink = HttpSink.builder(resolver).guard(LOCAL).requestTimeout(Duration.ofSeconds(30))
                    .build(); Pipeline pipeline = Pipeline.builder(queue, sink).manual()) {
                CompletionStage<TickReport> tick = pipeline.tick();
                await(() -> open("/limited") == 2, "2 requests open to /limited");
                registry.update("acme", "limited", at("/limited", 3));
                release();
                assertThat(DispatchFixture.await(tick).claimed()).as("claimed at limit 2").isEqualTo(2);
                assertThat(mostOpen("/limited")).isEqualTo(2);
                assertThat(tickHolding(pipeline, 3).claimed()).as("claimed after the update to 3").isEqualTo(3);
                assertThat(mostOpen("/limited")).isEqualTo(3);
                assertThat(tickHolding(pipeline, 1).claimed()).as("the last one").isEqualTo(1);
            }
            assertThat(mostOpen("/limited")).as("most requests open at once to /limited").isEqualTo(3);
            assertThat(queue.stats().pending() + queue.stats().scheduled() + queue.stats().inflight()).isZero();
        }
    }
}
