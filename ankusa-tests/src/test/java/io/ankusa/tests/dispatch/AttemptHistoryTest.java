package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.ankusa.api.AttemptErrorClass;
import io.ankusa.api.AttemptPage;
import io.ankusa.api.AttemptQuery;
import io.ankusa.api.DeliveryAttempt;
import io.ankusa.api.Hook;
import io.ankusa.api.events.AttemptOutcome;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.Replayer;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.WebhookSecret;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.dispatch.sink.Sinks;
import io.ankusa.keys.AttemptKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.queue.upkeep.Housekeeping;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.testkit.ScriptedSink;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The attempt history (docs/delivery.md, "Attempt history"): written in the settle batch, read back
 * per tenant and per hook newest first, bounded per delivery, pruned by retention, erased with
 * its tenant. Against a real HTTP server on 127.0.0.1 where the status matters.
 */
class AttemptHistoryTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    /** The answers of "/flaky", in order; the last one repeats. */
    private final int[] flaky = {500, 503, 200};
    private final AtomicInteger flakyCalls = new AtomicInteger();

    @BeforeEach
    void startReceiver() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/flaky", e -> {
            e.getRequestBody().readAllBytes();
            int call = flakyCalls.getAndIncrement();
            e.sendResponseHeaders(flaky[Math.min(call, flaky.length - 1)], -1);
            e.close();
        });
        server.start();
    }

    @AfterEach
    void stopReceiver() {
        server.stop(0);
        handlers.shutdownNow();
    }

    private HttpSink flakySink(DispatchFixture f) {
        return HttpSink.builder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/flaky"),
                        WebhookSecret.parse(SECRET))
                .guard(AddressGuard.builder().allowRange("127.0.0.1").build()) // the local receiver, on purpose
                .requestTimeout(Duration.ofSeconds(30)).clock(f.clock()).build();
    }

    /** Runs a tick, then moves the clock to the tenant's next due row (if any); returns the tick. */
    /** A pipeline over {@code sink} with the default retry schedule and a seeded random. */
    private static Pipeline retrying(DispatchFixture f, ScriptedSink sink) {
        return f.pipeline(sink, b -> b.retryPolicy(RetryPolicy.defaults()).random(new SplittableRandom(42)));
    }

    private static TickReport tickAndAdvance(DispatchFixture f, Pipeline pipeline, String tenant) {
        TickReport tick = DispatchFixture.await(pipeline.tick());
        f.ledger().firstDue(f.ord(tenant)).ifPresent(next -> f.clock().advance(Math.max(0, next.at() - f.now())));
        return tick;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void attemptHistoryIsReadBackNewestFirst(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            long seq = f.ingest(Hook.builder().id("msg_1").sourceId("shop").tenantId("acme").payload("{}").sinks(0).build()).seq();
            f.ingest("msg_other", "globex", 1);
            List<Long> startedAt = new ArrayList<>();
            Sinks sinks = Sinks.builder().sink(0, flakySink(f)).sink(1, new ScriptedSink(d -> SinkOutcome.delivered())).build();
            try (Pipeline pipeline = f.pipeline(sinks, b -> b.random(new SplittableRandom(7)))) {
                for (int i = 0; i < 3; i++) {
                    startedAt.add(f.now());
                    tickAndAdvance(f, pipeline, "acme");
                }
            }
            assertThat(flakyCalls.get()).as("500, 503, 200").isEqualTo(3);

            AttemptPage tenant = f.queue().attempts(AttemptQuery.tenant("acme"));
            assertThat(tenant.hasMore()).isFalse();
            assertThat(tenant.attempts()).extracting(DeliveryAttempt::attempt).containsExactly(3, 2, 1);
            assertThat(tenant.attempts()).extracting(DeliveryAttempt::status)
                    .containsExactly(OptionalInt.of(200), OptionalInt.of(503), OptionalInt.of(500));
            assertThat(tenant.attempts()).extracting(DeliveryAttempt::outcome)
                    .containsExactly(AttemptOutcome.DELIVERED, AttemptOutcome.RETRY, AttemptOutcome.RETRY);
            assertThat(tenant.attempts()).extracting(DeliveryAttempt::errorClass)
                    .containsExactly(AttemptErrorClass.NONE, AttemptErrorClass.HTTP_5XX, AttemptErrorClass.HTTP_5XX);
            assertThat(tenant.attempts()).extracting(a -> a.at().toEpochMilli())
                    .containsExactly(startedAt.get(2), startedAt.get(1), startedAt.get(0));
            assertThat(tenant.attempts()).extracting(DeliveryAttempt::reason).containsExactly("", "http 503", "http 500");
            assertThat(tenant.attempts()).allSatisfy(a -> {
                assertThat(a.latency()).isGreaterThanOrEqualTo(Duration.ZERO);
                assertThat(a.tenantId()).isEqualTo("acme");
                assertThat(a.hookId()).isEqualTo("msg_1");
                assertThat(a.seq()).isEqualTo(seq);
                assertThat(a.sink()).isZero();
            });

            assertThat(f.queue().attempts(AttemptQuery.hook("acme", "msg_1")).attempts())
                    .as("per hook: the same three").isEqualTo(tenant.attempts());
            assertThat(f.queue().attempts(AttemptQuery.hook("acme", "msg_other")).attempts()).as("globex's hook id under acme")
                    .isEmpty();
            assertThat(f.queue().attempts(AttemptQuery.tenant("globex")).attempts())
                    .extracting(a -> a.hookId() + " " + a.sink() + " " + a.outcome() + " " + a.status() + " " + a.errorClass())
                    .containsExactly("msg_other 1 DELIVERED OptionalInt.empty NONE");
            assertThat(f.queue().attempts(AttemptQuery.tenant("nobody")).attempts()).isEmpty();

            AttemptPage first = f.queue().attempts(AttemptQuery.tenant("acme").limit(2));
            assertThat(first.hasMore()).isTrue();
            AttemptPage second = f.queue().attempts(AttemptQuery.hook("acme", "msg_1").limit(2).after(first.next().orElseThrow()));
            assertThat(first.attempts()).extracting(DeliveryAttempt::attempt).containsExactly(3, 2);
            assertThat(second.attempts()).extracting(DeliveryAttempt::attempt).containsExactly(1);
            assertThat(second.hasMore()).isFalse();
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void historyIsBoundedPerDeliveryAlsoAcrossAReplay(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.attemptsPerDelivery(3))) {
            f.ingest("msg_1", "acme", 0, 1);
            AtomicInteger answers = new AtomicInteger();
            ScriptedSink sink = new ScriptedSink(d -> d.sink() == 1 ? SinkOutcome.delivered(204)
                    : SinkOutcome.retry("busy " + answers.incrementAndGet()));
            try (Pipeline pipeline = retrying(f, sink)) {
                for (int i = 0; i < 10; i++) {
                    tickAndAdvance(f, pipeline, "acme");
                }
                assertThat(f.queue().deadForTenant("acme").dead()).as("sink 0 used up the schedule").isEqualTo(1);
                assertThat(f.queue().attempts(AttemptQuery.tenant("acme")).attempts())
                        .extracting(a -> a.sink() + "#" + a.attempt())
                        .as("three of sink 0's ten attempts, and sink 1's one").containsExactly("0#10", "0#9", "0#8", "1#1");
                assertThat(historyKeys(f.store(), f.ord("acme")))
                        .as("by tenant and by hook per entry, and a slot per entry but sink 1's delivered one").isEqualTo(11);

                f.clock().advance(60_000);
                assertThat(Replayer.of(f.queue()).replayTenant("acme").revived()).isEqualTo(1);
                tickAndAdvance(f, pipeline, "acme");
            }
            assertThat(f.queue().attempts(AttemptQuery.hook("acme", "msg_1")).attempts())
                    .extracting(a -> a.sink() + "#" + a.attempt() + " " + a.reason() + " " + a.status())
                    .as("numbering starts again after the replay: attempt 1 takes slot 0, which attempt 10 held")
                    .containsExactly("0#1 busy 11 OptionalInt.empty", "0#9 busy 9 OptionalInt.empty",
                            "0#8 busy 8 OptionalInt.empty", "1#1  OptionalInt[204]");
            assertThat(historyKeys(f.store(), f.ord("acme"))).isEqualTo(11);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDeliveredAttemptTakesNoSlotEvictsTheOneItWouldHaveTakenAndLeavesNoSlotBehind(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir,
                b -> b.attemptsPerDelivery(3).attemptsRetention(Duration.ofDays(1)).housekeepingInterval(Duration.ZERO))) {
            f.ingest("msg_1", "acme", 0);
            AtomicInteger answers = new AtomicInteger();
            ScriptedSink sink = new ScriptedSink(d -> answers.incrementAndGet() <= 3 ? SinkOutcome.retry("busy")
                    : SinkOutcome.delivered(204));
            try (Pipeline pipeline = retrying(f, sink)) {
                for (int i = 0; i < 4; i++) {
                    tickAndAdvance(f, pipeline, "acme");
                }
            }
            assertThat(f.queue().attempts(AttemptQuery.tenant("acme")).attempts())
                    .extracting(a -> a.attempt() + " " + a.outcome())
                    .as("attempt 4 took slot 0 from attempt 1").containsExactly("4 DELIVERED", "3 RETRY", "2 RETRY");
            assertThat(historyKeys(f.store(), f.ord("acme")))
                    .as("two keys per entry, and the slots of attempts 2 and 3 only").isEqualTo(8);

            f.clock().advance(Duration.ofDays(2).toMillis());
            QueueEngine.of(f.queue()).housekeeping().pruneAttempts();
            assertThat(historyKeys(f.store(), f.ord("acme"))).as("no slot key outlives the entries it named").isZero();
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void retentionRemovesOldHistory(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir,
                b -> b.attemptsRetention(Duration.ofDays(1)).housekeepingInterval(Duration.ZERO))) {
            f.ingest("old_1", "acme", 0, 1);
            f.ingest("old_2", "globex", 0);
            ScriptedSink sink = new ScriptedSink(d -> d.hookId().startsWith("old") ? SinkOutcome.retry("later")
                    : SinkOutcome.delivered());
            Housekeeping housekeeping = QueueEngine.of(f.queue()).housekeeping();
            try (Pipeline pipeline = f.pipeline(sink, b -> b)) {
                DispatchFixture.await(pipeline.tick());
                assertThat(housekeeping.pruneAttempts()).as("nothing is a day old yet").isZero();
                f.clock().advance(Duration.ofDays(1).toMillis() + 1);
                f.ingest("new_1", "acme", 0);
                DispatchFixture.await(pipeline.tick());
            }
            assertThat(f.queue().attempts(AttemptQuery.tenant("acme")).attempts()).extracting(DeliveryAttempt::hookId)
                    .containsExactlyInAnyOrder("new_1", "old_1", "old_1", "old_1", "old_1");

            assertThat(housekeeping.runOnce().attemptsPruned()).as("the three attempts of a day ago").isEqualTo(3);

            assertThat(f.queue().attempts(AttemptQuery.tenant("acme")).attempts()).extracting(a -> a.hookId() + "#" + a.attempt())
                    .containsExactlyInAnyOrder("new_1#1", "old_1#2", "old_1#2");
            assertThat(f.queue().attempts(AttemptQuery.hook("acme", "old_1")).attempts()).extracting(DeliveryAttempt::attempt)
                    .containsExactly(2, 2);
            assertThat(f.queue().attempts(AttemptQuery.tenant("globex")).attempts()).extracting(DeliveryAttempt::attempt)
                    .containsExactly(2);
            assertThat(historyKeys(f.store(), f.ord("acme")))
                    .as("no key of a pruned entry is left; the delivered new_1 has no slot").isEqualTo(8);
            assertThat(housekeeping.pruneAttempts()).isZero();
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void erasureRemovesATenantsHistory(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir)) {
            f.ingest("msg_1", "acme", 0);
            f.ingest("msg_2", "globex", 0);
            try (Pipeline pipeline = f.pipeline(new ScriptedSink(d -> SinkOutcome.retry("busy")), b -> b)) {
                DispatchFixture.await(pipeline.tick());
            }
            long acme = f.ord("acme");
            assertThat(historyKeys(f.store(), acme)).isEqualTo(3);

            assertThat(f.queue().eraseTenant("acme").erased()).isTrue();

            assertThat(historyKeys(f.store(), acme)).isZero();
            assertThat(f.queue().attempts(AttemptQuery.tenant("acme")).attempts()).isEmpty();
            assertThat(f.queue().attempts(AttemptQuery.tenant("globex")).attempts()).hasSize(1);
        }
    }

    /** Every {@code ?H} key of tenant {@code ord}, read straight from the store. */
    static int historyKeys(Store store, long ord) {
        byte[] from = {'H', (byte) (ord >>> 24), (byte) (ord >>> 16), (byte) (ord >>> 8), (byte) ord};
        byte[] to = from.clone();
        to[4]++;
        int n = 0;
        try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.of(from, to))) {
            while (scan.hasNext()) {
                scan.next();
                n++;
            }
        }
        assertThat(AttemptKey.FAMILY.isSentinel(from)).isFalse();
        return n;
    }
}
