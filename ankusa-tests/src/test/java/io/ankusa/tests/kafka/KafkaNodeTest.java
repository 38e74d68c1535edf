package io.ankusa.tests.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Sink;
import io.ankusa.dispatch.SinkOutcome;
import io.ankusa.kafka.IntakeAck;
import io.ankusa.kafka.KafkaIntake;
import io.ankusa.kafka.KafkaNode;
import io.ankusa.kafka.KafkaPartition;
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
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 18: nodes over a real KRaft broker (one per class, in a child JVM on 127.0.0.1), on both
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
    @DisplayName("a restarted node resumes from its store")
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
    @DisplayName("the committed offset is the first offset whose hook still owes a delivery")
    void committedOffsetIsTheLowWatermark(String backend) {
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
    @DisplayName("a rebalance never dispatches a partition from two nodes")
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
}
