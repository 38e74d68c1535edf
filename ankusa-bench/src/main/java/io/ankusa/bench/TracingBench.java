package io.ankusa.bench;

import io.ankusa.api.EndpointSettings;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import io.ankusa.store.Stores;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The cost of tracing: the drain rate of a started {@link Pipeline} with a no-op sink, tracing off
 * ({@link OpenTelemetry#noop()} on the queue and the pipeline, as without tracing) and on (the SDK
 * with a {@link SimpleSpanProcessor} exporting every span to an {@link InMemorySpanExporter}, the
 * hooks ingested under a producer span, so each stored a trace context and each attempt is a span).
 * The backlog is ingested first (not timed); the clock runs from {@code start()} until every row is
 * settled. Rounds alternate which mode runs first; the medians and the on/off ratio follow.
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.only=TracingBench
 * </pre>
 *
 * System properties: {@code ankusa.bench.deliveries} (per cell, default 50 000),
 * {@code ankusa.bench.backends} (comma-separated; default both), {@code ankusa.bench.rounds}
 * (default 3), {@code ankusa.bench.dir}. One tenant, payload 256 bytes, one sink per hook, the
 * pipeline's defaults. A warm-up of 10 000 deliveries runs before each cell.
 */
public final class TracingBench {

    private static final int WARM_UP = 10_000;
    private static final int PAYLOAD = 256;

    private TracingBench() {
    }

    private record Cell(String backend, boolean traced, int deliveries, double seconds, long spans) {
        double rate() {
            return deliveries / seconds;
        }
    }

    /** Runs the bench; see the class comment for the properties. */
    public static void main(String[] args) throws Exception {
        int deliveries = Integer.getInteger("ankusa.bench.deliveries", 50_000);
        int rounds = Integer.getInteger("ankusa.bench.rounds", 3);
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        String backends = System.getProperty("ankusa.bench.backends", "");
        List<Cell> cells = new ArrayList<>();
        for (String backend : Stream.of("rocksdb", "lmdb").filter(b -> Stores.provider(b).isPresent())
                .filter(b -> backends.isBlank() || List.of(backends.split(",")).contains(b)).toList()) {
            for (int round = 0; round < rounds; round++) {
                // Alternating which mode goes first spreads a drift in the machine's load over both.
                for (boolean traced : round % 2 == 0 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                    run(root, backend, traced, WARM_UP);
                    cells.add(run(root, backend, traced, deliveries));
                }
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Tracing bench: no-op sink, %d B payload, 1 tenant, 1 sink per hook, pipeline "
                + "defaults, Java %s%n%n", PAYLOAD, System.getProperty("java.version"));
        System.out.println("| backend | tracing | deliveries | seconds | deliveries/s | spans exported |");
        System.out.println("|---|---|---:|---:|---:|---:|");
        cells.forEach(c -> System.out.printf(Locale.ROOT, "| %s | %s | %,d | %.2f | %,.0f | %,d |%n", c.backend(),
                c.traced() ? "SDK, in-memory exporter" : "off (noop)", c.deliveries(), c.seconds(), c.rate(),
                c.spans()));
        System.out.println();
        System.out.println("| backend | rounds | deliveries/s off (median) | on (median) | on/off |");
        System.out.println("|---|---:|---:|---:|---:|");
        cells.stream().map(Cell::backend).distinct().forEach(backend -> {
            double off = median(cells.stream().filter(c -> c.backend().equals(backend) && !c.traced())
                    .mapToDouble(Cell::rate).toArray());
            double on = median(cells.stream().filter(c -> c.backend().equals(backend) && c.traced())
                    .mapToDouble(Cell::rate).toArray());
            System.out.printf(Locale.ROOT, "| %s | %d | %,.0f | %,.0f | %.3f |%n", backend, rounds, off, on, on / off);
        });
    }

    private static Cell run(Path root, String backend, boolean traced, int hooks) throws Exception {
        Path dir = Files.createTempDirectory(root, "tracing-" + backend + "-");
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        SdkTracerProvider provider = traced
                ? SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build() : null;
        OpenTelemetry otel = traced ? OpenTelemetrySdk.builder().setTracerProvider(provider).build()
                : OpenTelemetry.noop();
        // The sink is in-process: no per-endpoint limit (its default is the HTTP client's per-host pool).
        QueueConfig config = QueueConfig.builder(dir).backend(backend)
                .endpoints(EndpointSettings.DEFAULTS.withMaxConcurrency(Integer.MAX_VALUE)).build();
        try (Queue queue = Queue.open(config, otel)) {
            ingest(queue, otel, hooks);
            AtomicLong calls = new AtomicLong();
            long start;
            try (Pipeline pipeline = Pipeline.builder(queue, d -> {
                calls.incrementAndGet();
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }).manual()) {
                start = System.nanoTime();
                pipeline.start();
                while (queue.stats().bytes() != 0) {
                    Thread.sleep(2);
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (calls.get() != hooks) {
                throw new IllegalStateException(calls.get() + " sink calls for " + hooks + " hooks");
            }
            return new Cell(backend, traced, hooks, seconds, exporter.getFinishedSpanItems().size());
        } finally {
            if (provider != null) {
                provider.close();
            }
            delete(dir);
        }
    }

    /** Ingests {@code hooks} hooks under one producer span (not timed), at most 8 192 in flight. */
    private static void ingest(Queue queue, OpenTelemetry otel, int hooks) throws InterruptedException {
        Span producer = otel.getTracer("bench").spanBuilder("producer").startSpan();
        Scope scope = producer.makeCurrent();
        try {
            byte[] body = new byte[PAYLOAD];
            Semaphore inFlight = new Semaphore(8_192);
            AtomicLong refused = new AtomicLong();
            for (int i = 0; i < hooks; i++) {
                inFlight.acquire();
                queue.ingest(Hook.builder().id("h" + i).sourceId("bench").tenantId("tenant").payload(body).sinks(0)
                        .build()).whenComplete((r, e) -> {
                            if (e != null) {
                                refused.incrementAndGet();
                            }
                            inFlight.release();
                        });
            }
            if (!inFlight.tryAcquire(8_192, 10, TimeUnit.MINUTES) || refused.get() != 0) {
                throw new IllegalStateException(refused.get() + " hooks refused at ingest");
            }
        } finally {
            scope.close();
            producer.end();
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
