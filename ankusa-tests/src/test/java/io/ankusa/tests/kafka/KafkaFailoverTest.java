package io.ankusa.tests.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.kafka.IntakeAck;
import io.ankusa.kafka.KafkaIntake;
import io.ankusa.queue.Queue;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.store.Store;
import io.ankusa.tests.queue.IndexFold;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Failover: three node processes share an intake topic; one is killed with SIGKILL mid-delivery,
 * the others take its partitions. Every acknowledged hook is delivered at least once, duplicates
 * are counted and come only from the partitions the killed node held, and every store left behind
 * (the killed node's too) has counters equal to a fold of its index. 10⁴ hooks over 100 tenants
 * by default; {@code -Pkafka-full} runs 10⁵ over 10³.
 */
class KafkaFailoverTest {

    private static final int PARTITIONS = 6;
    private static final int HOOKS = Integer.getInteger("ankusa.kafka.hooks", 10_000);
    private static final int TENANTS = Integer.getInteger("ankusa.kafka.tenants", 100);
    private static final Duration WAIT = Duration.ofMinutes(5);

    @TempDir
    static Path brokerDir;

    private static KafkaBroker broker;

    @TempDir
    Path dir;

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

    /** A node child JVM. */
    private record Node(String name, Process process, BufferedReader stdout, Path root, Path deliveries) {

        static Node start(String name, Path dir, String topic, String group, String backend) {
            Path root = dir.resolve(name);
            Path deliveries = dir.resolve(name + ".deliveries");
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    NodeProcess.class.getName(), broker.bootstrap(), topic, group, root.toString(), backend,
                    deliveries.toString());
            try {
                Files.createDirectories(root);
                Files.createFile(deliveries);
                Process process = new ProcessBuilder(command).redirectError(dir.resolve(name + ".log").toFile()).start();
                Node node = new Node(name, process, new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8)), root, deliveries);
                node.expect("ready");
                return node;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void expect(String word) {
            try {
                String line;
                while ((line = stdout.readLine()) != null) {
                    if (line.equals(word)) {
                        return;
                    }
                }
                throw new AssertionError(name + " ended before '" + word + "'");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        List<String> delivered() {
            try {
                // A line being written may be cut short; only whole lines count.
                String text = Files.readString(deliveries, StandardCharsets.UTF_8);
                int end = text.lastIndexOf('\n');
                return end < 0 ? List.of() : List.of(text.substring(0, end).split("\n"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void killNine() throws InterruptedException {
            process.toHandle().destroyForcibly();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(name + " gone after SIGKILL").isTrue();
        }

        void stop() throws InterruptedException {
            try {
                process.getOutputStream().write("stop\n".getBytes(StandardCharsets.UTF_8));
                process.getOutputStream().flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            expect("stopped");
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void nodeKilledMidDeliveryLosesNoAcknowledgedHook(String backend) throws Exception {
        String topic = "failover-" + backend;
        String group = "group-" + topic;
        broker.createTopic(topic, PARTITIONS);
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add(Node.start("node" + i, dir, topic, group, backend));
        }
        // Publish once the three have joined: then no partition moves before the kill, and every
        // duplicate comes from the killed node's partitions (a join's rebalance has a window too).
        Eventually.until(WAIT, () -> "three nodes holding partitions", () -> broker.groupStable(group, 3));
        Map<String, Integer> partitionOf = new HashMap<>();
        Map<String, Long> offsetOf = new HashMap<>();
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).property("linger.ms", 5).build()) {
            List<CompletableFuture<IntakeAck>> acks = new ArrayList<>(HOOKS);
            for (int i = 0; i < HOOKS; i++) {
                acks.add(intake.publish(Hook.builder().id("h" + i).sourceId("failover").tenantId("tenant-" + (i % TENANTS))
                        .payload("{\"n\":" + i + "}").sinks(0).build()));
            }
            acks.forEach(a -> {
                IntakeAck ack = a.join();
                partitionOf.put(ack.hookId(), ack.partition());
                offsetOf.put(ack.hookId(), ack.offset());
            });
        }
        assertThat(partitionOf).hasSize(HOOKS);

        int killAfter = HOOKS / 10 + random.nextInt(HOOKS * 4 / 10);
        Eventually.until(WAIT, () -> "at least " + killAfter + " deliveries",
                () -> nodes.stream().mapToInt(n -> n.delivered().size()).sum() >= killAfter);
        // The victim is one of the nodes delivering: a node that holds no partition (three nodes
        // may join after the partitions were spread) would test no failover at all.
        List<Node> delivering = nodes.stream().filter(n -> !n.delivered().isEmpty()).toList();
        Node victim = delivering.get(random.nextInt(delivering.size()));
        victim.killNine();
        // The victim's last committed watermarks: read before the group notices the kill (after
        // session.timeout.ms), so no survivor has committed for its partitions yet.
        Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> atKill =
                broker.committed(group);
        Set<String> victimDelivered = new HashSet<>(victim.delivered());
        List<Node> survivors = nodes.stream().filter(n -> n != victim).toList();

        Eventually.until(WAIT, () -> "every acknowledged hook delivered", () -> {
            Set<String> seen = new HashSet<>(victimDelivered);
            survivors.forEach(n -> seen.addAll(n.delivered()));
            return seen.containsAll(partitionOf.keySet());
        });
        for (Node node : survivors) {
            node.stop();
        }

        Map<String, Integer> times = new HashMap<>();
        Map<String, Set<String>> deliveredBy = new HashMap<>();
        for (Node node : nodes) {
            for (String id : node.delivered()) {
                times.merge(id, 1, Integer::sum);
                deliveredBy.computeIfAbsent(id, k -> new HashSet<>()).add(node.name());
            }
        }
        Set<Integer> victimPartitions = new HashSet<>();
        victimDelivered.forEach(id -> victimPartitions.add(partitionOf.get(id)));
        // Which nodes delivered from each partition: a partition that changed owner (the killed node's,
        // or one moved by a rebalance while the nodes joined) is the only place a duplicate may come from.
        Map<Integer, Set<String>> owners = new HashMap<>();
        deliveredBy.forEach((id, by) -> owners.computeIfAbsent(partitionOf.get(id), k -> new HashSet<>()).addAll(by));
        long duplicates = times.values().stream().mapToLong(t -> t - 1).sum();
        List<String> twice = times.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
        assertThat(victimPartitions).as("the killed node held partitions").isNotEmpty();
        assertThat(times.keySet()).as("every acknowledged hook delivered").containsAll(partitionOf.keySet());
        assertThat(twice).as("duplicates come only from partitions that changed owner")
                .allSatisfy(id -> assertThat(owners.get(partitionOf.get(id))).hasSizeGreaterThan(1));
        // The duplicate window: a survivor takes a victim partition over at the victim's last committed
        // watermark, without its store, so what it delivers again is at most what the victim had settled
        // (its sink had seen) at or after that watermark. Nothing below it comes twice.
        Map<Integer, Long> watermarkAtKill = new HashMap<>();
        atKill.forEach((tp, offset) -> {
            if (tp.topic().equals(topic)) {
                watermarkAtKill.put(tp.partition(), offset.offset());
            }
        });
        Set<String> window = new HashSet<>();
        victimDelivered.forEach(id -> {
            if (offsetOf.get(id) >= watermarkAtKill.getOrDefault(partitionOf.get(id), 0L)) {
                window.add(id);
            }
        });
        assertThat(twice).as("duplicates are hooks the killed node settled at or after its committed watermark")
                .allSatisfy(id -> {
                    assertThat(victimPartitions).contains(partitionOf.get(id));
                    assertThat(window).contains(id);
                });
        assertThat(times.values()).as("a hook comes at most twice: once from the killed node, once from its heir")
                .allSatisfy(t -> assertThat(t).isLessThanOrEqualTo(2));

        int stores = 0;
        for (Node node : nodes) {
            try (Stream<Path> list = Files.list(node.root())) {
                for (Path store : list.filter(Files::isDirectory).toList()) {
                    try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend)
                            .housekeepingInterval(Duration.ZERO).build())) {
                        Store raw = QueueEngine.of(queue).store();
                        IndexFold fold = IndexFold.of(raw);
                        fold.assertCountersMatch(raw);
                        fold.assertEveryDueRowHasAMarker();
                        stores++;
                    }
                }
            }
        }
        assertThat(stores).as("partition stores audited").isGreaterThanOrEqualTo(PARTITIONS);
        System.out.printf("kafka failover %s (seed %d): %d hooks over %d tenants, %d partitions; killed %s after %d deliveries"
                + " (it held partitions %s, watermarks at the kill %s); %d duplicate deliveries (%d hooks) within a window of"
                + " %d hooks (settled by it at or after its watermark), %d stores audited%n", backend, seed, HOOKS,
                TENANTS, PARTITIONS, victim.name(), killAfter, victimPartitions, watermarkAtKill, duplicates, twice.size(),
                window.size(), stores);
    }
}
