package io.ankusa.tests.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.EndpointSettings;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueStats;
import io.ankusa.api.TraceContext;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.kafka.IntakeAck;
import io.ankusa.kafka.KafkaIntake;
import io.ankusa.kafka.KafkaNode;
import io.ankusa.kafka.KafkaPartition;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.TestQueue;
import io.ankusa.tests.support.InterruptingStore;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nodes over a real KRaft broker (one per class, in a child JVM on 127.0.0.1), on both
 * backends: a restarted node resumes from its store, and Kafka's committed offset is the low
 * watermark.
 */
class KafkaNodeTest {

    private static final int PARTITIONS = 4;
    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    static Path brokerDir;

    private static KafkaBroker broker;

    @TempDir
    Path root;

    @BeforeAll
    static void startBroker() {
        broker = KafkaBroker.start(brokerDir);
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    /** A sink that never delivers: every attempt is retried an hour later, so every hook stays owed. */
    private static final Sink NEVER = delivery -> CompletableFuture.completedFuture(
            new SinkOutcome.Retry(Optional.of(Duration.ofHours(1)), "held by the test"));

    private static List<IntakeAck> publish(KafkaIntake intake, String prefix, int hooks, int tenants) {
        List<CompletableFuture<IntakeAck>> acks = new ArrayList<>();
        for (int i = 0; i < hooks; i++) {
            acks.add(intake.publish(Hook.builder().id(prefix + i).sourceId("test").tenantId("t" + (i % tenants))
                    .payload("{\"n\":" + i + "}").sinks(0).build()));
        }
        return acks.stream().map(CompletableFuture::join).toList();
    }

    private static KafkaNode node(String backend, String topic, String group, Path root, Sink sink) {
        return KafkaNode.builder(broker.bootstrap(), topic, group, root, sink)
                .queueConfig(b -> b.backend(backend).housekeepingInterval(Duration.ZERO))
                .pipelineConfig(b -> b.tickInterval(Duration.ofMillis(20)).sinkDeadline(Duration.ofSeconds(5)))
                .property("session.timeout.ms", 6000).property("heartbeat.interval.ms", 500)
                .commitInterval(Duration.ofMillis(200))
                .build().start();
    }

    private static long owed(QueueStats stats) {
        return stats.pending() + stats.scheduled() + stats.inflight();
    }

    /** Per partition: the store's owed rows, read while the node holds them. */
    private static Map<Integer, Long> owedByPartition(KafkaNode node) {
        Map<Integer, Long> owed = new HashMap<>();
        for (KafkaPartition p : node.partitions()) {
            owed.put(p.partition(), owed(p.queue().stats()));
        }
        return owed;
    }

    private static Map<Integer, Long> count(List<IntakeAck> acks) {
        Map<Integer, Long> byPartition = new HashMap<>();
        acks.forEach(a -> byPartition.merge(a.partition(), 1L, Long::sum));
        return byPartition;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void restartedNodeResumesFromItsStore(String backend) {
        String topic = "restart-" + backend;
        String group = "group-" + topic;
        broker.createTopic(topic, PARTITIONS);
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).build()) {
            List<IntakeAck> first = publish(intake, "a", 300, 20);
            try (KafkaNode node = node(backend, topic, group, root, NEVER)) {
                Eventually.until(WAIT, () -> "300 hooks owed: " + owedByPartition(node),
                        () -> node.partitions().size() == PARTITIONS
                                && owedByPartition(node).values().stream().mapToLong(Long::longValue).sum() == 300);
            }
            // Nothing was delivered: the watermark committed on close is each partition's first offset,
            // far behind the stores. A node that resumed from Kafka's offset would ingest everything again.
            Map<TopicPartition, OffsetAndMetadata> committed = broker.committed(group);
            assertThat(committed).hasSize(PARTITIONS);
            committed.values().forEach(offset -> assertThat(offset.offset()).isZero());
            assertThat(committed.values()).allSatisfy(offset -> assertThat(offset.metadata()).startsWith("ankusa generation="));

            List<IntakeAck> second = publish(intake, "b", 200, 20);
            List<IntakeAck> all = new ArrayList<>(first);
            all.addAll(second);
            Map<Integer, Long> expected = count(all);
            Map<TopicPartition, Long> ends = broker.endOffsets(committed.keySet().stream().toList());
            try (KafkaNode node = node(backend, topic, group, root, NEVER)) {
                Eventually.until(WAIT, () -> "every store at its partition's end: " + owedByPartition(node),
                        () -> node.partitions().size() == PARTITIONS && node.partitions().stream().allMatch(p ->
                                p.queue().intakePosition(topic + "-" + p.partition()).orElse(-1)
                                        == ends.get(new TopicPartition(topic, p.partition())) - 1));
                // Each record is in its store once: one owed row per hook, per partition.
                assertThat(owedByPartition(node)).isEqualTo(expected);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theCommittedOffsetIsTheFirstOffsetWhoseHookStillOwesADelivery(String backend) {
        String topic = "watermark-" + backend;
        String group = "group-" + topic;
        broker.createTopic(topic, 1);
        AtomicInteger delivered = new AtomicInteger();
        // Hook "stuck" is never delivered; every other hook is.
        Sink sink = delivery -> {
            if (delivery.hookId().equals("stuck")) {
                return CompletableFuture.completedFuture(new SinkOutcome.Retry(Optional.of(Duration.ofHours(1)), "held"));
            }
            delivered.incrementAndGet();
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        };
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).build();
                KafkaNode node = node(backend, topic, group, root, sink)) {
            publish(intake, "before", 50, 5);
            IntakeAck stuck = intake.publish(Hook.builder().id("stuck").sourceId("test").tenantId("stuck-tenant").payload("{}").sinks(0)
                    .build()).join();
            publish(intake, "after", 50, 5);
            TopicPartition tp = new TopicPartition(topic, 0);
            Eventually.until(WAIT, () -> "100 delivered, watermark at the stuck hook: " + broker.committed(group),
                    () -> !node.died() && delivered.get() >= 100 && Optional.ofNullable(broker.committed(group).get(tp))
                            .map(OffsetAndMetadata::offset).orElse(-1L) == stuck.offset());
        }
    }

    /** One delivery attempt as a sink saw it: which node, from when to when (monotonic nanos). */
    private record Attempt(String node, String hookId, long start, long end) {
    }

    /** A sink recording each attempt's interval; a delivery takes 2 ms. */
    private static Sink recording(String node, List<Attempt> attempts) {
        java.util.concurrent.Executor later = CompletableFuture.delayedExecutor(2, java.util.concurrent.TimeUnit.MILLISECONDS);
        return delivery -> {
            long start = System.nanoTime();
            return CompletableFuture.supplyAsync(() -> {
                attempts.add(new Attempt(node, delivery.hookId(), start, System.nanoTime()));
                return SinkOutcome.delivered();
            }, later);
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void rebalanceNeverDispatchesAPartitionFromTwoNodes(String backend) throws Exception {
        String topic = "rebalance-" + backend;
        String group = "group-" + topic;
        broker.createTopic(topic, PARTITIONS);
        List<Attempt> attempts = java.util.Collections.synchronizedList(new ArrayList<>());
        Map<String, Integer> partitionOf = new java.util.concurrent.ConcurrentHashMap<>();
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).build()) {
            KafkaNode a = node(backend, topic, group, root.resolve("a"), recording("a", attempts));
            publish(intake, "first", 400, 40).forEach(ack -> partitionOf.put(ack.hookId(), ack.partition()));
            Eventually.until(WAIT, () -> "node a delivers", () -> attempts.size() >= 100);
            try (KafkaNode b = node(backend, topic, group, root.resolve("b"), recording("b", attempts))) {
                publish(intake, "second", 400, 40).forEach(ack -> partitionOf.put(ack.hookId(), ack.partition()));
                Eventually.until(WAIT, () -> "both nodes hold partitions",
                        () -> !a.partitions().isEmpty() && !b.partitions().isEmpty());
                a.close(); // every partition moves to b
                publish(intake, "third", 400, 40).forEach(ack -> partitionOf.put(ack.hookId(), ack.partition()));
                Eventually.until(WAIT, () -> "every hook delivered", () -> {
                    Set<String> seen = new java.util.HashSet<>();
                    synchronized (attempts) {
                        attempts.forEach(at -> seen.add(at.hookId()));
                    }
                    return seen.containsAll(partitionOf.keySet());
                });
            }
        }
        Map<Integer, List<Attempt>> byPartition = new HashMap<>();
        synchronized (attempts) {
            attempts.forEach(at -> byPartition.computeIfAbsent(partitionOf.get(at.hookId()), k -> new ArrayList<>()).add(at));
        }
        int moved = 0;
        for (Map.Entry<Integer, List<Attempt>> entry : byPartition.entrySet()) {
            List<Attempt> list = new ArrayList<>(entry.getValue());
            list.sort(java.util.Comparator.comparingLong(Attempt::start));
            Map<String, Long> lastEnd = new HashMap<>();
            for (Attempt attempt : list) {
                lastEnd.forEach((node, end) -> {
                    if (!node.equals(attempt.node())) {
                        assertThat(attempt.start()).as("partition %d: %s started %s while %s was still delivering",
                                entry.getKey(), attempt.node(), attempt.hookId(), node).isGreaterThanOrEqualTo(end);
                    }
                });
                lastEnd.merge(attempt.node(), attempt.end(), Math::max);
            }
            if (lastEnd.size() > 1) {
                moved++;
            }
        }
        assertThat(moved).as("partitions that moved from a to b").isGreaterThan(0);
    }

    /**
     * The self-fence: a node whose poll loop is frozen inside {@code poll} (a {@link PollFreeze}
     * interceptor; its heartbeat thread keeps it in the group) while one hook keeps failing starts
     * no attempt later than the fencing bound after its last completed poll, reports itself fenced
     * and keeps its partition; released, it completes a poll, confirms with a commit and resumes.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aStalledNodeStopsDispatchingBeforeItsPartitionsMove(String backend) {
        String topic = "fence-" + backend;
        String group = "group-" + topic;
        broker.createTopic(topic, 1);
        Duration bound = Duration.ofMillis(1500);
        // The gate is read from the clock by every tick: past the bound only a tick already under way
        // may still hand out an attempt. The margin is for that tick, not for the watchdog's period.
        Duration margin = Duration.ofMillis(300);
        List<Long> starts = java.util.Collections.synchronizedList(new ArrayList<>());
        List<String> delivered = java.util.Collections.synchronizedList(new ArrayList<>());
        Sink sink = delivery -> {
            if (delivery.hookId().equals("failing")) {
                starts.add(System.nanoTime());
                return CompletableFuture.completedFuture(SinkOutcome.retry("fails every attempt"));
            }
            delivered.add(delivery.hookId());
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        };
        PollFreeze.Switch freeze = PollFreeze.register(topic);
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).build();
                KafkaNode node = KafkaNode.builder(broker.bootstrap(), topic, group, root, sink)
                        // No circuit breaker: the failing hook is attempted every retry, not once per probe.
                        .queueConfig(b -> b.backend(backend).housekeepingInterval(Duration.ZERO)
                                .endpoints(EndpointSettings.DEFAULTS.withBreaker(Integer.MAX_VALUE, Duration.ofMillis(1))))
                        .pipelineConfig(b -> b.tickInterval(Duration.ofMillis(20)).retryPolicy(RetryPolicy.builder()
                                .schedule(List.of(Duration.ofMillis(20))).jitter(0).maxAttempts(100_000).build()))
                        .property("session.timeout.ms", 6000).property("heartbeat.interval.ms", 500)
                        .property("interceptor.classes", PollFreeze.class.getName()).property(PollFreeze.ID, topic)
                        .fencingBound(bound).commitInterval(Duration.ofMillis(200)).build().start()) {
            try {
                intake.publish(traced("failing").build()).join();
                Eventually.until(WAIT, () -> "the failing hook is attempted: " + starts.size(),
                        () -> starts.size() >= 5 && !node.fenced());

                freeze.arm();
                intake.publish(traced("during").build()).join();
                Eventually.until(WAIT, () -> "the poll loop freezes", freeze::frozen);
                Eventually.until(WAIT, () -> "the node fences", node::fenced);
                long lastPoll = System.nanoTime() - node.sinceLastPoll().toNanos();
                assertThat(lastPoll).as("the last completed poll came before the freeze")
                        .isLessThanOrEqualTo(freeze.frozenAt());
                // Watch the fenced node for two seconds past the bound, on its own clock of the last poll.
                Eventually.until(WAIT, () -> "two seconds fenced",
                        () -> node.sinceLastPoll().compareTo(bound.plusSeconds(2)) >= 0);
                assertThat(node.fenced()).isTrue();
                long lastStart;
                synchronized (starts) {
                    lastStart = starts.stream().mapToLong(Long::longValue).max().orElseThrow();
                }
                Duration window = Duration.ofNanos(lastStart - lastPoll);
                System.out.println("fencing window (" + backend + "): " + window.toMillis() + " ms after the last poll,"
                        + " bound " + bound.toMillis() + " ms");
                assertThat(window).as("last attempt start after the last completed poll")
                        .isLessThan(bound.plus(margin))
                        // it kept dispatching while the bound had not passed: the fence is not the freeze itself
                        .isGreaterThan(bound.dividedBy(2));
                assertThat(node.partitions()).as("the frozen node keeps its partition").hasSize(1);
                assertThat(delivered).as("the hook the frozen poll read is not ingested yet").isEmpty();

                long released = System.nanoTime();
                freeze.release();
                Eventually.until(WAIT, () -> "the node resumes and delivers the hook the frozen poll read",
                        () -> !node.fenced() && delivered.contains("during"));
                Eventually.until(WAIT, () -> "the failing hook is attempted again", () -> {
                    synchronized (starts) {
                        return starts.stream().anyMatch(start -> start > released);
                    }
                });
                assertThat(node.died()).isFalse();
                assertThat(node.partitions()).hasSize(1);
            } finally {
                freeze.release();
            }
        }
    }

    /** A dead letter as compared across stores: what an operator sees of it. */
    private record Letter(String tenant, String hookId, int sink, int attempts, String lastError) {
    }

    private static Set<Letter> deadLetters(KafkaNode node) {
        Set<Letter> letters = new java.util.HashSet<>();
        for (KafkaPartition p : node.partitions()) {
            p.queue().deadLetters(DeadLetterQuery.all().limit(DeadLetterQuery.MAX_LIMIT)).letters().forEach(l ->
                    letters.add(new Letter(l.tenantId(), l.hookId(), l.sink(), l.attempts(), l.lastError())));
        }
        return letters;
    }

    /** The dead-letter topic's latest value per key (tombstoned keys left out), read to its end. */
    private static Map<String, byte[]> deadTopic(String topic, int partitions) {
        Map<String, byte[]> latest = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", broker.bootstrap(),
                "key.deserializer", StringDeserializer.class.getName(),
                "value.deserializer", ByteArrayDeserializer.class.getName()))) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int i = 0; i < partitions; i++) {
                tps.add(new TopicPartition(topic, i));
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> ends = consumer.endOffsets(tps);
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (r.value() == null) {
                        latest.remove(r.key());
                    } else {
                        latest.put(r.key(), r.value());
                    }
                });
            }
        }
        return latest;
    }

    /** A W3C traceparent whose trace and span ids are {@code i + 1}. */
    private static String traceparentOf(int i) {
        return String.format(java.util.Locale.ROOT, "00-%032x-%016x-01", i + 1, i + 1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void deadLettersSurviveTheLossOfANodeAndReplayOnTheNewOwner(String backend) throws Exception {
        String topic = "dead-" + backend;
        String group = "group-" + topic;
        broker.createTopic(topic, PARTITIONS);
        // "bad" hooks fail for good on the first node (two sinks: sink 1 dead, sink 0 delivered).
        Sink refusing = delivery -> CompletableFuture.completedFuture(delivery.hookId().startsWith("bad") && delivery.sink() == 1
                ? SinkOutcome.dead("410 gone") : SinkOutcome.delivered());
        Set<String> redelivered = java.util.concurrent.ConcurrentHashMap.newKeySet();
        // The trace each replayed delivery runs under: the untraced pipeline makes the hook's stored one current.
        Map<String, String> traces = new java.util.concurrent.ConcurrentHashMap<>();
        Sink taking = delivery -> {
            traces.put(delivery.hookId(), Span.current().getSpanContext().getTraceId());
            redelivered.add(delivery.hookId() + "/" + delivery.sink());
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        };
        Path lost = root.resolve("lost");
        Set<Letter> before;
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).build()) {
            List<IntakeAck> acks = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                String id = (i % 5 == 0 ? "bad" : "good") + i;
                acks.add(intake.publish(Hook.builder().id(id).sourceId("test").tenantId("t" + (i % 7)).payload("{\"n\":" + i + "}")
                        .sinks(0, 1).traceContext(TraceContext.of(traceparentOf(i))).build()).join());
            }
            Map<TopicPartition, Long> ends = broker.endOffsets(java.util.stream.IntStream.range(0, PARTITIONS)
                    .mapToObj(p -> new TopicPartition(topic, p)).toList());
            try (KafkaNode node = node(backend, topic, group, lost, refusing)) {
                // Every hook settled and the watermark committed past it: the letters' hooks are below it.
                Eventually.until(WAIT, () -> "12 dead letters, watermarks at the end: " + deadLetters(node) + " " + broker.committed(group),
                        () -> deadLetters(node).size() == 12 && ends.entrySet().stream().allMatch(e ->
                                Optional.ofNullable(broker.committed(group).get(e.getKey())).map(OffsetAndMetadata::offset)
                                        .orElse(-1L).longValue() == e.getValue()));
                before = deadLetters(node);
            }
            assertThat(before).allSatisfy(l -> assertThat(l.hookId()).startsWith("bad"));
            cliOnPartitionStores(backend, lost, topic, acks);
            assertThat(deadTopic(topic + ".dead", PARTITIONS)).hasSize(12);
            // Another machine: the first node's stores are gone.
            deleteTree(lost);
            try (KafkaNode node = node(backend, topic, group, root.resolve("other"), taking)) {
                Eventually.until(WAIT, () -> "the new owner lists the same dead letters: " + deadLetters(node),
                        () -> node.partitions().size() == PARTITIONS && deadLetters(node).equals(before));
                assertThat(redelivered).as("nothing below the watermark is delivered again").isEmpty();
                Map<Integer, Set<String>> tenantsByPartition = new HashMap<>();
                acks.stream().filter(a -> a.hookId().startsWith("bad"))
                        .forEach(a -> tenantsByPartition.computeIfAbsent(a.partition(), k -> new java.util.HashSet<>()).add(a.tenant()));
                long revived = 0;
                for (Map.Entry<Integer, Set<String>> partition : tenantsByPartition.entrySet()) {
                    for (String tenant : partition.getValue()) {
                        revived += node.replayDeadLetters(partition.getKey(), tenant).revived();
                    }
                }
                assertThat(revived).isEqualTo(12);
                Eventually.until(WAIT, () -> "every replayed letter delivered: " + redelivered,
                        () -> redelivered.size() == 12);
                assertThat(redelivered).allSatisfy(d -> assertThat(d).startsWith("bad").endsWith("/1"));
                assertThat(traces).as("a restored letter's hook keeps its trace context").hasSize(12).allSatisfy((hook, trace) ->
                        assertThat(trace).isEqualTo(traceparentOf(Integer.parseInt(hook.substring(3))).substring(3, 35)));
                assertThat(deadLetters(node)).isEmpty();
            }
            assertThat(deadTopic(topic + ".dead", PARTITIONS)).as("replayed letters are tombstoned").isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aNodePublishesTheDeadLettersItsStoreHoldsAndTheTopicLacks(String backend) {
        String topic = "unpublished-" + backend;
        String group = "group-" + topic;
        broker.createTopic(topic, 1);
        broker.createTopic(topic + "-later", 1);
        Sink refusing = delivery -> CompletableFuture.completedFuture(SinkOutcome.dead("410 gone"));
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).build()) {
            publish(intake, "h", 20, 3);
            try (KafkaNode node = node(backend, topic, group, root, refusing)) {
                Eventually.until(WAIT, () -> "20 dead letters: " + deadLetters(node), () -> deadLetters(node).size() == 20);
            }
            // As if the node had died between the store's dead-lettering and the publish: the store holds
            // letters a dead-letter topic does not. The store is current, so nothing is restored; the
            // first commit publishes them.
            try (KafkaNode node = KafkaNode.builder(broker.bootstrap(), topic, group, root, refusing)
                    .queueConfig(b -> b.backend(backend).housekeepingInterval(Duration.ZERO))
                    .deadLetterTopic(topic + "-later.dead").commitInterval(Duration.ofMillis(200)).build().start()) {
                Eventually.until(WAIT, () -> "20 letters published", () -> !node.died() && deadTopic(topic + "-later.dead", 1).size() == 20);
            }
        }
    }


    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aStoreCommitThatFailsMidPollIsReadAgainAndNothingIsIngestedTwice(String backend) {
        String topic = "failedcommit-" + backend;
        String group = "group-" + topic;
        broker.createTopic(topic, 1);
        java.util.concurrent.atomic.AtomicReference<InterruptingStore> store = new java.util.concurrent.atomic.AtomicReference<>();
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).build()) {
            publish(intake, "h", 400, 10);
            // Writer batches of 16 hooks: the first poll's records span many batches; the second batch
            // that holds hooks fails, and the batches after it commit, their positions past its records.
            try (KafkaNode node = KafkaNode.builder(broker.bootstrap(), topic, group, root, NEVER)
                    .queueConfig(b -> b.backend(backend).housekeepingInterval(Duration.ZERO).batchMaxHooks(16))
                    .queueOpener(config -> TestQueue.openOnWall(config, s -> {
                        InterruptingStore interrupting = new InterruptingStore(s);
                        interrupting.failCommit(2, batch -> batch.ops().stream().anyMatch(
                                op -> op instanceof WriteBatch.Put put && put.family().equals(ColumnFamilies.HOOKS)));
                        store.set(interrupting);
                        return interrupting;
                    }))
                    .commitInterval(Duration.ofMillis(200)).build().start()) {
                Eventually.until(WAIT, () -> "400 hooks owed once each: " + owedByPartition(node),
                        () -> !node.partitions().isEmpty() && owedByPartition(node).getOrDefault(0, 0L) == 400
                                && node.partitions().get(0).queue().intakePosition(topic + "-0").orElse(-1) == 399);
                assertThat(store.get().fired()).as("a commit failed").isTrue();
                assertThat(node.partitions().get(0).failed()).isFalse();
                QueueStats stats = node.partitions().get(0).queue().stats();
                assertThat(owed(stats)).as("one row per record").isEqualTo(400);
            }
        }
    }


    /** One in-process run of the {@code ankusa} CLI against {@code store}: exit code, stdout, stderr. */
    private record Cli(int exit, String out, String err) {
        static Cli run(Path store, String backend, String... args) {
            java.io.StringWriter out = new java.io.StringWriter();
            java.io.StringWriter err = new java.io.StringWriter();
            List<String> all = new ArrayList<>(List.of(args));
            all.addAll(List.of("--store", store.toString(), "--backend", backend));
            int exit = io.ankusa.cli.command.AnkusaCommand.execute(new java.io.PrintWriter(out, true),
                    new java.io.PrintWriter(err, true), all.toArray(String[]::new));
            return new Cli(exit, out.toString(), err.toString());
        }
    }

    /**
     * The {@code ankusa} CLI on the partition stores a stopped node left behind: the read commands
     * show what the node held, a replay revives, a checkpoint copies, the dry run finds nothing to migrate.
     */
    private void cliOnPartitionStores(String backend, Path nodeRoot, String topic, List<IntakeAck> acks) throws Exception {
        Map<Integer, List<IntakeAck>> bad = new HashMap<>();
        acks.stream().filter(a -> a.hookId().startsWith("bad")).forEach(a -> bad.computeIfAbsent(a.partition(), k -> new ArrayList<>()).add(a));
        for (int p = 0; p < PARTITIONS; p++) {
            Path store = nodeRoot.resolve(topic + "-" + p);
            List<IntakeAck> letters = bad.getOrDefault(p, List.of());
            Cli stats = Cli.run(store, backend, "stats", "--json");
            assertThat(stats.exit()).as("stats on %s: %s", store, stats.err()).isZero();
            assertThat(stats.out()).contains("\"dead\":" + letters.size()).contains("\"pending\":0");
            Cli tenants = Cli.run(store, backend, "tenants");
            assertThat(tenants.exit()).as("tenants: %s", tenants.err()).isZero();
            Cli dlq = Cli.run(store, backend, "dlq", "--limit", "100");
            assertThat(dlq.exit()).as("dlq: %s", dlq.err()).isZero();
            letters.forEach(a -> assertThat(dlq.out()).contains(a.hookId()));
            Cli migrate = Cli.run(store, backend, "migrate", "--dry-run");
            assertThat(migrate.exit()).as("migrate --dry-run: %s", migrate.err()).isZero();
            Cli endpoints = Cli.run(store, backend, "endpoints", "list");
            assertThat(endpoints.exit()).as("endpoints list: %s", endpoints.err()).isZero();
            Cli quarantine = Cli.run(store, backend, "quarantine", "list");
            assertThat(quarantine.exit()).as("quarantine list: %s", quarantine.err()).isZero();
            if (!letters.isEmpty()) {
                Cli attempts = Cli.run(store, backend, "attempts", "--tenant", letters.get(0).tenant());
                assertThat(attempts.exit()).as("attempts: %s", attempts.err()).isZero();
                Path copy = root.resolve("copy-" + p);
                Cli checkpoint = Cli.run(store, backend, "checkpoint", copy.toString());
                assertThat(checkpoint.exit()).as("checkpoint: %s", checkpoint.err()).isZero();
                // A replay on the copy (the node's store stays as it was for the takeover below).
                Cli replay = Cli.run(copy, backend, "replay", "--all");
                assertThat(replay.exit()).as("replay --all: %s", replay.err()).isZero();
                Cli after = Cli.run(copy, backend, "stats", "--json");
                assertThat(after.out()).contains("\"dead\":0").contains("\"pending\":" + letters.size());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHooksTraceContextSurvivesTheKafkaHop(String backend) {
        String topic = "trace-" + backend;
        String group = "group-" + topic;
        broker.createTopic(topic, 1);
        broker.createTopic(topic + ".refused", 1);
        broker.createTopic(topic + "-source", 1);
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        TraceContext own = new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "vendor=value");
        try (OpenTelemetrySdk otel = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
                KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).openTelemetry(otel).build()) {
            // One hook captures the caller's current span at publish, one carries its own context.
            Span producer = otel.getTracer("test").spanBuilder("producer request").startSpan();
            Scope current = producer.makeCurrent();
            try {
                intake.publish(traced("captured").build()).join();
            } finally {
                current.close();
                producer.end();
            }
            intake.publish(traced("own").traceContext(own).build()).join();
            // A hook record whose traceparent header is malformed: refused like any bad record.
            try (KafkaIntake source = KafkaIntake.builder(broker.bootstrap(), topic + "-source").build();
                    KafkaProducer<String, byte[]> raw = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrap(),
                            "key.serializer", StringSerializer.class.getName(),
                            "value.serializer", ByteArraySerializer.class.getName()))) {
                source.publish(traced("malformed").build()).join();
                ProducerRecord<String, byte[]> bad = new ProducerRecord<>(topic, "t0",
                        read(topic + "-source", 1).get(0).value());
                bad.headers().add("ankusa-traceparent", "00-not-a-trace".getBytes(StandardCharsets.UTF_8));
                raw.send(bad).get();
            } catch (Exception e) {
                throw new AssertionError(e);
            }

            Sink delivering = delivery -> CompletableFuture.completedFuture(SinkOutcome.delivered());
            try (KafkaNode node = KafkaNode.builder(broker.bootstrap(), topic, group, root, delivering)
                    .openTelemetry(otel)
                    .queueConfig(b -> b.backend(backend).housekeepingInterval(Duration.ZERO))
                    .pipelineConfig(b -> b.tickInterval(Duration.ofMillis(20)))
                    .commitInterval(Duration.ofMillis(200)).build().start()) {
                TopicPartition tp = new TopicPartition(topic, 0);
                Eventually.until(WAIT, () -> "two hooks delivered, the watermark past the refused record: "
                        + broker.committed(group) + " " + spans.getFinishedSpanItems(),
                        () -> !node.died() && span(spans, "ankusa.deliver", "captured").isPresent()
                                && span(spans, "ankusa.deliver", "own").isPresent()
                                && Optional.ofNullable(broker.committed(group).get(tp))
                                        .map(OffsetAndMetadata::offset).orElse(-1L) == 3);
            }
            List<ConsumerRecord<String, byte[]>> refused = read(topic + ".refused", 1);

            // The consuming node's ingest span is the producer's child, each attempt the ingest span's.
            SpanData ingest = span(spans, "ankusa.ingest", "captured").orElseThrow();
            SpanData attempt = span(spans, "ankusa.deliver", "captured").orElseThrow();
            assertThat(ingest.getTraceId()).isEqualTo(producer.getSpanContext().getTraceId());
            assertThat(ingest.getParentSpanId()).isEqualTo(producer.getSpanContext().getSpanId());
            assertThat(attempt.getTraceId()).isEqualTo(producer.getSpanContext().getTraceId());
            assertThat(attempt.getParentSpanId()).isEqualTo(ingest.getSpanId());

            SpanData ownIngest = span(spans, "ankusa.ingest", "own").orElseThrow();
            SpanData ownAttempt = span(spans, "ankusa.deliver", "own").orElseThrow();
            assertThat(ownIngest.getTraceId()).isEqualTo(own.traceId());
            assertThat(ownIngest.getParentSpanId()).isEqualTo(own.parentId());
            assertThat(ownIngest.getSpanContext().getTraceState().get("vendor")).isEqualTo("value");
            assertThat(ownAttempt.getTraceId()).isEqualTo(own.traceId());

            assertThat(refused).singleElement().satisfies(r -> {
                assertThat(header(r, "ankusa-error")).isEqualTo("invalid_trace_context");
                assertThat(header(r, "ankusa-source")).isEqualTo(topic + "-0@2");
            });
            assertThat(span(spans, "ankusa.ingest", "malformed")).isEmpty();
        }
    }

    /**
     * The intake record carries the ordering key, so a node that ingests a partition (at start, or
     * taking it over without the store) keeps each key's order: the head of key k is retried, and
     * the next hook of k is not attempted before the head is delivered, while the unordered hook
     * behind them goes out at once.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anOrderingKeySurvivesTheKafkaHop(String backend) {
        String topic = "ordering-" + backend;
        String group = "group-" + topic;
        broker.createTopic(topic, 1);
        List<String> delivered = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger headAttempts = new AtomicInteger();
        Sink sink = delivery -> {
            if (delivery.hookId().equals("k0") && headAttempts.incrementAndGet() < 3) {
                return CompletableFuture.completedFuture(SinkOutcome.retry("head fails twice"));
            }
            delivered.add(delivery.hookId());
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        };
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).build()) {
            for (String id : List.of("k0", "k1", "k2")) {
                intake.publish(traced(id).orderingKey("invoice-7").build()).join();
            }
            intake.publish(traced("free").build()).join();
            try (KafkaNode node = KafkaNode.builder(broker.bootstrap(), topic, group, root, sink)
                    .queueConfig(b -> b.backend(backend).housekeepingInterval(Duration.ZERO))
                    .pipelineConfig(b -> b.tickInterval(Duration.ofMillis(20)).retryPolicy(RetryPolicy.builder()
                            .schedule(List.of(Duration.ofMillis(200))).jitter(0).build()))
                    .commitInterval(Duration.ofMillis(200)).build().start()) {
                Eventually.until(WAIT, () -> "four hooks delivered: " + delivered,
                        () -> !node.died() && delivered.size() == 4);
            }
        }
        assertThat(headAttempts.get()).isEqualTo(3);
        assertThat(delivered.stream().filter(id -> id.startsWith("k")).toList()).containsExactly("k0", "k1", "k2");
        assertThat(delivered.get(0)).as("the unordered hook does not wait for the key").isEqualTo("free");
    }

    private static Hook.Builder traced(String id) {
        return Hook.builder().id(id).sourceId("test").tenantId("t0").payload("{}").sinks(0);
    }

    private static Optional<SpanData> span(InMemorySpanExporter spans, String name, String hookId) {
        return spans.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)
                && hookId.equals(s.getAttributes().asMap().entrySet().stream()
                        .filter(e -> e.getKey().getKey().equals("messaging.message.id"))
                        .map(e -> String.valueOf(e.getValue())).findFirst().orElse(null)))
                .findFirst();
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** Every record of a topic's partitions, read to their end. */
    private static List<ConsumerRecord<String, byte[]>> read(String topic, int partitions) {
        List<ConsumerRecord<String, byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", broker.bootstrap(),
                "key.deserializer", StringDeserializer.class.getName(),
                "value.deserializer", ByteArrayDeserializer.class.getName()))) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int i = 0; i < partitions; i++) {
                tps.add(new TopicPartition(topic, i));
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> ends = consumer.endOffsets(tps);
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.delete(p);
            }
        }
    }
}
