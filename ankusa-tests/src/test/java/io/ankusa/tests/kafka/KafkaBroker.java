package io.ankusa.tests.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;

/**
 * A real single-node KRaft broker (combined controller and broker) in a child JVM, listening on
 * 127.0.0.1 only, on ports free when it starts; one per test class. {@link #close()} kills it.
 */
final class KafkaBroker implements AutoCloseable {

    private final Process process;
    private final String bootstrap;
    private final Admin admin;
    private final Path log;

    private KafkaBroker(Process process, String bootstrap, Path log) {
        this.process = process;
        this.bootstrap = bootstrap;
        this.log = log;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000));
    }

    /** Starts a broker with its data under {@code dir} and waits until it answers (up to 90 s). */
    static KafkaBroker start(Path dir) {
        int port = freePort();
        int controllerPort = freePort();
        Path log = dir.resolve("broker.log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BrokerProcess.class.getName());
        command.add(dir.resolve("kraft").toString());
        command.add(String.valueOf(port));
        command.add(String.valueOf(controllerPort));
        try {
            Files.createDirectories(dir);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            KafkaBroker broker = new KafkaBroker(process, "127.0.0.1:" + port, log);
            broker.awaitReady();
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            if (!process.isAlive()) {
                throw new AssertionError("broker exited (" + process.exitValue() + "): " + tail());
            }
            try {
                admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("broker not ready within 90 s: " + tail(), e);
                }
            }
        }
    }

    String bootstrap() {
        return bootstrap;
    }

    Admin admin() {
        return admin;
    }

    /**
     * Creates the intake topic {@code topic} with {@code partitions} partitions (replication 1), and
     * its dead-letter topic {@code <topic>.dead} and its settles topic {@code <topic>.settled}: both
     * compacted, as many partitions.
     */
    void createTopic(String topic, int partitions) {
        try {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1),
                    new NewTopic(topic + ".dead", partitions, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                    new NewTopic(topic + ".settled", partitions, (short) 1)
                            .configs(Map.of("cleanup.policy", "compact"))))
                    .all().get(60, TimeUnit.SECONDS);
            awaitLeaders(topic, partitions);
            awaitLeaders(topic + ".dead", partitions);
            awaitLeaders(topic + ".settled", partitions);
        } catch (Exception e) {
            throw new AssertionError("could not create " + topic, e);
        }
    }

    /**
     * Waits until the broker leads every partition of {@code topic}: a list-offsets request, which
     * only a partition's leader answers, succeeds for each. A topic whose creation has returned may
     * not be led yet; an idempotent producer whose first batch is refused then ("not leader") while
     * a later one lands can retry the first for good (KAFKA-14359), so tests publish only to led
     * partitions.
     */
    private void awaitLeaders(String topic, int partitions) {
        Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
        for (int p = 0; p < partitions; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        // Right after the creation returned, the broker may not know the topic's metadata yet: the
        // request then fails with a retriable error (unknown topic, no leader yet), asked again.
        Eventually.until(Duration.ofSeconds(60), () -> "the broker leads every partition of " + topic, () -> {
            try {
                admin.listOffsets(latest).all().get(60, TimeUnit.SECONDS);
                return true;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RetriableException) {
                    return false;
                }
                throw new AssertionError("could not list the offsets of " + topic, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError(e);
            }
        });
    }

    /** The group's committed offsets of {@code topic}'s partitions. */
    Map<TopicPartition, OffsetAndMetadata> committed(String group) {
        try {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(60, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Whether {@code group} is stable with {@code members} members, each assigned a partition (false
     * while no member has joined it yet).
     */
    boolean groupStable(String group, int members) {
        try {
            org.apache.kafka.clients.admin.ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group))
                    .describedGroups().get(group).get(60, TimeUnit.SECONDS);
            return description.groupState() == org.apache.kafka.common.GroupState.STABLE
                    && description.members().size() == members
                    && description.members().stream().noneMatch(m -> m.assignment().topicPartitions().isEmpty());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                return false;
            }
            throw new AssertionError(e);
        } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
            throw new AssertionError(e);
        }
    }

    /** The end offsets of {@code partitions}. */
    Map<TopicPartition, Long> endOffsets(List<TopicPartition> partitions) {
        try {
            Map<TopicPartition, OffsetSpec> request = new java.util.HashMap<>();
            partitions.forEach(tp -> request.put(tp, OffsetSpec.latest()));
            Map<TopicPartition, Long> ends = new java.util.HashMap<>();
            admin.listOffsets(request).all().get(60, TimeUnit.SECONDS).forEach((tp, info) -> ends.put(tp, info.offset()));
            return ends;
        } catch (InterruptedException | ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new AssertionError(e);
        }
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
