package io.ankusa.tests.kafka;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.kafka.IntakeAck;
import io.ankusa.kafka.KafkaIntake;
import io.ankusa.kafka.KafkaNode;
import io.ankusa.queue.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Kafka intake bench (the {@code bench} profile): one node's throughput with Kafka intake (a
 * {@link KafkaIntake} publishing, one {@link KafkaNode} holding every partition, a no-op sink) against
 * the embedded queue alone (producers ingest into one {@link Queue}, a {@link Pipeline} delivers to
 * the same no-op sink). Both count from the first hook sent to the last one delivered, on one
 * backend, with the broker in a child JVM on the same machine. Prints a Markdown table; the rule:
 * every hook is delivered (the Kafka side at least once). Exits non-zero when it fails.
 *
 * <p>System properties: {@code ankusa.bench.backends} (default {@code rocksdb}),
 * {@code ankusa.bench.kafkaHooks} (default 50 000), {@code ankusa.bench.dir}.
 */
public final class KafkaIntakeBench {

    private static final int TENANTS = 1000;
    private static final int PARTITIONS = 4;

    private KafkaIntakeBench() {
    }

    /**
     * Runs the bench.
     *
     * @param args none
     * @throws Exception when a phase fails
     */
    public static void main(String[] args) throws Exception {
        int hooks = Integer.getInteger("ankusa.bench.kafkaHooks", 50_000);
        String backends = System.getProperty("ankusa.bench.backends", "");
        // The bench profile's directory (target/bench) may not exist yet when this bench runs first.
        Path base = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir", System.getProperty("java.io.tmpdir"))));
        Path dir = Files.createTempDirectory(base, "kafka-bench");
        boolean ok = true;
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
                "%n| backend | hooks | embedded queue (hooks/s) | Kafka intake + node (hooks/s) | ratio |%n|---|---|---|---|---|%n"));
        try (KafkaBroker broker = KafkaBroker.start(dir.resolve("broker"))) {
            for (String backend : (backends.isBlank() ? "rocksdb" : backends).split(",")) {
                double embedded = embedded(backend, hooks, dir.resolve("embedded-" + backend));
                double kafka = kafka(broker, backend, hooks, dir.resolve("kafka-" + backend));
                ok &= embedded > 0 && kafka > 0;
                table.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.0f | %.2f |%n", backend, hooks, embedded, kafka,
                        kafka / embedded));
            }
        }
        System.out.println(table);
        System.out.println(ok ? "KafkaIntakeBench: every hook delivered" : "KafkaIntakeBench: FAILED");
        System.exit(ok ? 0 : 1);
    }

    private static Hook hook(int i) {
        return Hook.builder().id("h" + i).sourceId("bench").tenantId("tenant-" + (i % TENANTS)).payload("{\"n\":" + i + "}")
                .sinks(0).build();
    }

    private static Sink counting(Set<String> delivered) {
        return delivery -> {
            delivered.add(delivery.hookId());
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        };
    }

    private static double embedded(String backend, int hooks, Path dir) {
        Set<String> delivered = ConcurrentHashMap.newKeySet();
        long start = System.nanoTime();
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).build())) {
            Pipeline pipeline = Pipeline.builder(queue, counting(delivered)).start();
            try {
                List<CompletableFuture<Receipt>> receipts = new ArrayList<>(hooks);
                for (int i = 0; i < hooks; i++) {
                    receipts.add(queue.ingest(hook(i), Duration.ofSeconds(30)));
                }
                receipts.forEach(CompletableFuture::join);
                Eventually.until(Duration.ofMinutes(10), () -> delivered.size() + " delivered", () -> delivered.size() == hooks);
                return hooks / ((System.nanoTime() - start) / 1e9);
            } finally {
                pipeline.close();
            }
        }
    }

    private static double kafka(KafkaBroker broker, String backend, int hooks, Path dir) {
        String topic = "bench-" + backend;
        broker.createTopic(topic, PARTITIONS);
        Set<String> delivered = ConcurrentHashMap.newKeySet();
        long start = System.nanoTime();
        try (KafkaIntake intake = KafkaIntake.builder(broker.bootstrap(), topic).property("linger.ms", 5).build();
                KafkaNode node = KafkaNode.builder(broker.bootstrap(), topic, "bench-" + backend, dir, counting(delivered))
                        .queueConfig(b -> b.backend(backend)).build().start()) {
            List<CompletableFuture<IntakeAck>> acks = new ArrayList<>(hooks);
            for (int i = 0; i < hooks; i++) {
                acks.add(intake.publish(hook(i)));
            }
            acks.forEach(CompletableFuture::join);
            Eventually.until(Duration.ofMinutes(10), () -> delivered.size() + " delivered",
                    () -> !node.died() && delivered.size() == hooks);
            return hooks / ((System.nanoTime() - start) / 1e9);
        }
    }
}
