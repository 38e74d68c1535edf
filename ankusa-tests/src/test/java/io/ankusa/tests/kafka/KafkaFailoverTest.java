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
            return start(name, dir, topic, group, backend, List.of());
        }

        static Node start(String name, Path dir, String topic, String group, String backend, List<String> more) {
            return start(name, dir, dir.resolve(name), topic, group, backend, more);
        }

        /** A node keeping its stores under {@code root} (another node's earlier root: that node restarted). */
        static Node start(String name, Path dir, Path root, String topic, String group, String backend,
                List<String> more) {
            Path deliveries = dir.resolve(name + ".deliveries");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                    System.getProperty("java.class.path"), NodeProcess.class.getName(), broker.bootstrap(), topic,
                    group, root.toString(), backend, deliveries.toString()));
            command.addAll(more);
            try {
                Files.createDirectories(root);
                Files.createFile(deliveries);
                Process process =
                        new ProcessBuilder(command).redirectError(dir.resolve(name + ".log").toFile()).start();
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

    /**
     * A takeover after a kill does not re-deliver what was settled: one tenant's endpoint fails every
     * attempt, so its first hook holds its partition's committed watermark near the start, and the
     * node holding that partition is killed with -9 well after it delivered most of the partition's
     * other hooks. The heir (no store) reads the partition's settles and skips what they name, so the
     * only duplicates of the other tenants are deliveries the killed node had not had acknowledged in
     * the settles topic when it died (its last publish interval), read from the topic right after the
     * kill, before the group notices it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTakeoverAfterAKillDoesNotRedeliverWhatWasSettled(String backend) throws Exception {
        String topic = "settles-" + backend;
        String group = "group-" + topic;
        String failing = "tenant-0";
        broker.createTopic(topic, PARTITIONS);
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add(Node.start("node" + i, dir, topic, group, backend, List.of(failing)));
        }
        Eventually.until(WAIT, () -> "three nodes holding partitions", () -> broker.groupStable(group, 3));
        Map<String, Integer> partitionOf = new HashMap<>();
        Map<String, Long> offsetOf = new HashMap<>();
        Map<String, String> tenantOf = new HashMap<>();
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).property("linger.ms", 5).build()) {
            List<CompletableFuture<IntakeAck>> acks = new ArrayList<>(HOOKS);
            for (int i = 0; i < HOOKS; i++) {
                String tenant = "tenant-" + (i % TENANTS);
                tenantOf.put("h" + i, tenant);
                acks.add(intake.publish(Hook.builder().id("h" + i).sourceId("settles").tenantId(tenant)
                        .payload("{\"n\":" + i + "}").sinks(0).build()));
            }
            acks.forEach(a -> {
                IntakeAck ack = a.join();
                partitionOf.put(ack.hookId(), ack.partition());
                offsetOf.put(ack.hookId(), ack.offset());
            });
        }
        int failingPartition = partitionOf.get("h0");
        Set<String> others = new HashSet<>();
        partitionOf.keySet().forEach(id -> {
            if (!tenantOf.get(id).equals(failing)) {
                others.add(id);
            }
        });
        long inFailingPartition = others.stream().filter(id -> partitionOf.get(id) == failingPartition).count();
        // Kill the node holding the failing tenant once it delivered a random share (a quarter to three
        // quarters) of its partition's other hooks: all of them sit behind the failing tenant's first hook.
        long killAfter = inFailingPartition / 4 + random.nextInt((int) Math.max(1, inFailingPartition / 2));
        Eventually.until(WAIT, () -> killAfter + " deliveries from partition " + failingPartition,
                () -> nodes.stream().mapToLong(n -> n.delivered().stream()
                        .filter(id -> partitionOf.get(id) == failingPartition).count()).sum() >= killAfter);
        Node victim = nodes.stream().filter(n -> n.delivered().stream()
                .anyMatch(id -> partitionOf.get(id) == failingPartition)).findFirst().orElseThrow();
        victim.killNine();
        // Read before the group notices the kill (session.timeout.ms, 6 s): no heir has written yet.
        Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> atKill =
                broker.committed(group);
        // Per partition: a settle's key names the hook by its offset in its own partition only.
        Map<Integer, Map<String, byte[]>> settledAtKill = compacted(topic + ".settled", PARTITIONS);
        Set<String> victimDelivered = new HashSet<>(victim.delivered());
        List<Node> survivors = nodes.stream().filter(n -> n != victim).toList();

        Eventually.until(WAIT, () -> "every acknowledged hook of the other tenants delivered", () -> {
            Set<String> seen = new HashSet<>(victimDelivered);
            survivors.forEach(n -> seen.addAll(n.delivered()));
            return seen.containsAll(others);
        });
        for (Node node : survivors) {
            node.stop();
        }

        Map<String, Integer> times = new HashMap<>();
        Map<Integer, Set<String>> owners = new HashMap<>();
        for (Node node : nodes) {
            node.delivered().forEach(id -> {
                times.merge(id, 1, Integer::sum);
                owners.computeIfAbsent(partitionOf.get(id), k -> new HashSet<>()).add(node.name());
            });
        }
        assertThat(times).as("the failing tenant's endpoint never accepted a delivery")
                .doesNotContainKeys(tenantOf.keySet().stream().filter(id -> tenantOf.get(id).equals(failing))
                        .toArray(String[]::new));
        List<String> twice = times.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
        long watermark = atKill.entrySet().stream()
                .filter(e -> e.getKey().topic().equals(topic) && e.getKey().partition() == failingPartition)
                .mapToLong(e -> e.getValue().offset()).findFirst().orElse(0L);
        // What the heir would have delivered again without the settles: everything the victim delivered
        // in the failing partition at or after the watermark the failing tenant held.
        Set<String> oldWindow = new HashSet<>();
        Set<String> unacknowledged = new HashSet<>();
        for (String id : victimDelivered) {
            if (partitionOf.get(id) == failingPartition && offsetOf.get(id) >= watermark) {
                oldWindow.add(id);
            }
            if (offsetOf.get(id) >= watermarkOf(atKill, topic, partitionOf.get(id))
                    && !settledAtKill.get(partitionOf.get(id)).containsKey(offsetOf.get(id) + "\u001f0")) {
                unacknowledged.add(id);
            }
        }
        assertThat(watermark).as("the failing tenant's first hook held its partition's watermark")
                .isLessThanOrEqualTo(offsetOf.get("h0"));
        assertThat(oldWindow).as("the killed node delivered behind the held watermark").hasSizeGreaterThanOrEqualTo(
                (int) Math.min(killAfter, inFailingPartition) / 2);
        // A duplicate of a delivery of the killed node is one whose settle the topic did not hold at
        // the kill. A duplicate it had no part in comes from a graceful move between the survivors (the
        // rebalance after the kill may move a partition): only from a partition that changed owner.
        // A takeover's duplicate is delivered by the killed node and by a survivor; one the killed node
        // delivered twice itself (an attempt past the sink deadline, tried again) is no takeover's.
        Set<String> bySurvivors = new HashSet<>();
        survivors.forEach(n -> bySurvivors.addAll(n.delivered()));
        List<String> ofVictim = twice.stream().filter(victimDelivered::contains).filter(bySurvivors::contains)
                .toList();
        List<String> ofMoves = twice.stream().filter(id -> !victimDelivered.contains(id)).toList();
        // Each as id@partition:offset (the committed watermark of its partition at the kill).
        List<String> settledYetAgain = ofVictim.stream().filter(id -> !unacknowledged.contains(id))
                .map(id -> id + "@" + partitionOf.get(id) + ":" + offsetOf.get(id) + " (watermark "
                        + watermarkOf(atKill, topic, partitionOf.get(id)) + ")")
                .sorted().toList();
        assertThat(settledYetAgain).as("the takeover's duplicates are deliveries whose settle the topic did not hold")
                .isEmpty();
        assertThat(ofMoves).as("other duplicates come only from partitions that changed owner")
                .allSatisfy(id -> assertThat(owners.get(partitionOf.get(id))).hasSizeGreaterThan(1));
        assertThat(times.values()).as("a hook comes at most twice")
                .allSatisfy(t -> assertThat(t).isLessThanOrEqualTo(2));
        long twiceInFailing = twice.stream().filter(id -> partitionOf.get(id) == failingPartition).count();

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
        System.out.printf("kafka settles %s (seed %d): %d hooks over %d tenants, %s failing; killed %s after %d"
                + " deliveries of partition %d (watermark %d held by it); without settles the heir would deliver %d"
                + " again; %d duplicates (%d in that partition, %d of deliveries by another node), %d settles"
                + " unacknowledged at the kill, %d stores audited%n", backend, seed, HOOKS, TENANTS, failing,
                victim.name(), killAfter, failingPartition, watermark, oldWindow.size(), twice.size(), twiceInFailing,
                ofMoves.size(), unacknowledged.size(), stores);
    }

    /**
     * A node that gets its old partition back does not re-deliver what the other owner delivered.
     * Node {@code a} holds the topic's one partition while {@code tenant-0}'s endpoint fails every
     * attempt, so its store owes those hooks (retrying) when it is killed with -9; node {@code b}
     * takes the partition over and delivers them, commits past every hook and stops. Then {@code a}
     * restarts on the same root, with every endpoint answering, and gets the partition back: the last
     * commit names {@code b}, so {@code a} discards its store of the partition instead of delivering
     * again what {@code b} delivered. Its store then owes nothing and it delivers nothing; the old
     * store's owed hooks would otherwise show as rows still owed (not yet due) or as deliveries.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aNodeThatGetsItsOldPartitionBackDoesNotRedeliverWhatTheOtherOwnerDelivered(String backend) throws Exception {
        String topic = "back-" + backend;
        String group = "group-" + topic;
        String failing = "tenant-0";
        int hooks = 300;
        int tenants = 10;
        broker.createTopic(topic, 1);
        org.apache.kafka.common.TopicPartition partition = new org.apache.kafka.common.TopicPartition(topic, 0);
        Node a = Node.start("a", dir, topic, group, backend, List.of(failing));
        Eventually.until(WAIT, () -> "a holding the partition", () -> broker.groupStable(group, 1));
        Set<String> ofFailing = new HashSet<>();
        Set<String> others = new HashSet<>();
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).property("linger.ms", 5).build()) {
            List<CompletableFuture<IntakeAck>> acks = new ArrayList<>(hooks);
            for (int i = 0; i < hooks; i++) {
                String tenant = "tenant-" + (i % tenants);
                (tenant.equals(failing) ? ofFailing : others).add("h" + i);
                acks.add(intake.publish(Hook.builder().id("h" + i).sourceId("back").tenantId(tenant)
                        .payload("{\"n\":" + i + "}").sinks(0).build()));
            }
            acks.forEach(CompletableFuture::join);
        }
        Eventually.until(WAIT, () -> "a delivered every hook of the other tenants",
                () -> a.delivered().containsAll(others));
        assertThat(a.delivered()).as("the failing tenant's endpoint accepted nothing").doesNotContainAnyElementsOf(
                ofFailing);
        // Once Kafka holds a's settles, b skips those hooks: what b delivers is what a's store still owes.
        org.apache.kafka.common.TopicPartition settles =
                new org.apache.kafka.common.TopicPartition(topic + ".settled", 0);
        Eventually.until(WAIT, () -> "a's settles of the other tenants in " + settles,
                () -> broker.endOffsets(List.of(settles)).get(settles) >= others.size());
        a.killNine(); // its store of the partition still owes the failing tenant's hooks

        Node b = Node.start("b", dir, topic, group, backend, List.of());
        String bId = Files.readString(b.root().resolve("node.id"), StandardCharsets.UTF_8).trim();
        Eventually.until(WAIT, () -> "b delivered the failing tenant's hooks and committed past every hook", () ->
                b.delivered().containsAll(ofFailing) && committedBy(group, partition, bId) == hooks);
        b.stop();

        Node back = Node.start("a-back", dir, a.root(), topic, group, backend, List.of());
        String aId = Files.readString(a.root().resolve("node.id"), StandardCharsets.UTF_8).trim();
        // a commits the partition at its first commit interval once it opened it (the last commit named b).
        Eventually.until(WAIT, () -> "a holding its old partition again and committing it",
                () -> committedBy(group, partition, aId) >= 0);
        back.stop();

        Set<String> byB = new HashSet<>(b.delivered());
        assertThat(byB).as("b delivered what a's store owed, and skipped what a had settled").isEqualTo(ofFailing);
        assertThat(back.delivered()).as("a, back, delivers nothing again that b delivered")
                .doesNotContainAnyElementsOf(byB);
        assertThat(back.delivered()).as("a, back, has nothing to deliver: b delivered every hook").isEmpty();
        int stores = 0;
        int storesOfA = 0;
        long owedBack = 0;
        for (Node node : List.of(a, b)) {
            try (Stream<Path> list = Files.list(node.root())) {
                for (Path store : list.filter(Files::isDirectory).toList()) {
                    try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend)
                            .housekeepingInterval(Duration.ZERO).build())) {
                        Store raw = QueueEngine.of(queue).store();
                        IndexFold fold = IndexFold.of(raw);
                        fold.assertCountersMatch(raw);
                        fold.assertEveryDueRowHasAMarker();
                        if (node == a) {
                            io.ankusa.api.QueueStats stats = queue.stats();
                            owedBack += stats.pending() + stats.scheduled() + stats.inflight();
                            storesOfA++;
                        }
                        stores++;
                    }
                }
            }
        }
        assertThat(storesOfA).as("a's store of the partition audited").isEqualTo(1);
        assertThat(stores).as("partition stores audited").isEqualTo(2);
        assertThat(owedBack).as("a's store of the partition, back, owes nothing: the stale one was discarded")
                .isZero();
        System.out.printf("kafka store back %s: a's store owed %d hooks of %s when killed; b delivered them and"
                + " %d hooks in all; a, back, delivered %d, its store owes %d%n", backend, ofFailing.size(), failing,
                byB.size(), back.delivered().size(), owedBack);
    }

    /** The group's committed offset of {@code partition} when its metadata names node {@code id}, else -1. */
    private static long committedBy(String group, org.apache.kafka.common.TopicPartition partition, String id) {
        org.apache.kafka.clients.consumer.OffsetAndMetadata offset = broker.committed(group).get(partition);
        return offset != null && offset.metadata().contains("node=" + id) ? offset.offset() : -1;
    }

    private static long watermarkOf(Map<org.apache.kafka.common.TopicPartition,
            org.apache.kafka.clients.consumer.OffsetAndMetadata> committed, String topic, int partition) {
        org.apache.kafka.clients.consumer.OffsetAndMetadata offset =
                committed.get(new org.apache.kafka.common.TopicPartition(topic, partition));
        return offset == null ? 0L : offset.offset();
    }

    /** The latest value per key of each partition of a compacted topic, tombstoned keys left out. */
    private static Map<Integer, Map<String, byte[]>> compacted(String topic, int partitions) {
        Map<Integer, Map<String, byte[]>> latest = new HashMap<>();
        try (org.apache.kafka.clients.consumer.KafkaConsumer<String, byte[]> consumer =
                new org.apache.kafka.clients.consumer.KafkaConsumer<>(Map.of("bootstrap.servers", broker.bootstrap(),
                "key.deserializer", org.apache.kafka.common.serialization.StringDeserializer.class.getName(),
                "value.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName()))) {
            List<org.apache.kafka.common.TopicPartition> tps = new ArrayList<>();
            for (int i = 0; i < partitions; i++) {
                tps.add(new org.apache.kafka.common.TopicPartition(topic, i));
                latest.put(i, new HashMap<>());
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<org.apache.kafka.common.TopicPartition, Long> ends = consumer.endOffsets(tps);
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (r.value() == null) {
                        latest.get(r.partition()).remove(r.key());
                    } else {
                        latest.get(r.partition()).put(r.key(), r.value());
                    }
                });
            }
        }
        return latest;
    }
}
