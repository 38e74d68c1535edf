package io.ankusa.bench;

import io.ankusa.api.EndpointSettings;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A drain whose work does not depend on timing, for counting its instructions under
 * {@code valgrind --tool=callgrind}: the queue on a fixed clock with housekeeping out of the way and
 * receipts completed on the writer's thread, hooks ingested one at a time (each its own commit), a
 * manual pipeline ticked on the calling thread until every row is delivered to a no-op sink.
 *
 * <p>It marks its phases for whoever counts: before the timed ingest, before the drain and after it,
 * it creates the file named after the phase ({@code ingest}, {@code drain}, {@code end}) in the mark
 * directory and waits until {@code <phase>.ack} appears there, so that {@code callgrind_control}
 * can zero the counters and dump each phase on its own. {@code instructions-ab.sh} beside the
 * module's pom compiles this one file against two revisions and compares the counts.
 *
 * <p>It uses only the public API that has not changed since the tracing work, so it compiles against
 * the revisions before it too. Arguments: backend, hooks, tenants, mark directory, store directory.
 */
public final class DrainInstructions {

    private static final int WARM_UP = 100;

    private DrainInstructions() {
    }

    /**
     * Runs the drain; see the class comment for the arguments.
     *
     * @param args backend, hooks, tenants, mark directory, store parent directory
     * @throws Exception when the queue fails or the marks cannot be written
     */
    public static void main(String[] args) throws Exception {
        String backend = args[0];
        int hooks = Integer.parseInt(args[1]);
        int tenants = Integer.parseInt(args[2]);
        Path marks = Path.of(args[3]);
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of(args[4])), "instructions-");
        QueueConfig config = QueueConfig.builder(dir).backend(backend)
                .clock(InstantSource.fixed(Instant.parse("2026-01-01T00:00:00Z")))
                .housekeepingInterval(Duration.ofDays(1))
                .completionExecutor(Runnable::run)
                .endpoints(EndpointSettings.DEFAULTS.withMaxConcurrency(Integer.MAX_VALUE)).build();
        byte[] payload = new byte[256];
        AtomicLong delivered = new AtomicLong();
        try (Queue queue = Queue.open(config);
             Pipeline pipeline = Pipeline.builder(queue, delivery -> {
                 delivered.incrementAndGet();
                 return CompletableFuture.completedFuture(SinkOutcome.delivered());
             }).manual()) {
            for (int i = 0; i < WARM_UP; i++) {
                ingest(queue, "w" + i, i % tenants, payload);
            }
            int warmTicks = drain(pipeline, delivered, WARM_UP);
            mark(marks, "ingest");
            for (int i = 0; i < hooks; i++) {
                ingest(queue, "h" + i, i % tenants, payload);
            }
            mark(marks, "drain");
            int ticks = drain(pipeline, delivered, WARM_UP + hooks);
            mark(marks, "end");
            System.out.printf("%s: %d hooks of %d tenants delivered in %d ticks (warm-up %d in %d)%n", backend,
                    hooks, tenants, ticks, WARM_UP, warmTicks);
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    private static void ingest(Queue queue, String id, int tenant, byte[] payload) {
        queue.ingest(Hook.builder().id(id).sourceId("bench").tenantId("t" + tenant).payload(payload).sinks(0)
                .build()).join();
    }

    private static int drain(Pipeline pipeline, AtomicLong delivered, long target) {
        int ticks = 0;
        while (delivered.get() < target) {
            pipeline.tick().toCompletableFuture().join();
            ticks++;
            if (ticks > 10 * target) {
                throw new IllegalStateException("the drain stopped at " + delivered.get() + " of " + target);
            }
        }
        return ticks;
    }

    /** Marks a phase and waits for the counter's acknowledgement (a file the script creates). */
    private static void mark(Path marks, String phase) throws IOException, InterruptedException {
        Files.writeString(marks.resolve(phase), phase);
        Path ack = marks.resolve(phase + ".ack");
        while (!Files.exists(ack)) {
            Thread.sleep(5);
        }
    }
}
