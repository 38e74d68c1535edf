package io.ankusa.bench.outbox;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.store.Store;
import io.ankusa.bench.Drains;
import io.ankusa.tests.queue.TestQueue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * Ankusa's side of the outbox bench: a fresh queue with its defaults per cell (the backend the
 * only setting), synced ingest through {@link Queue#ingest} (acknowledged when the future
 * completes, after the group commit's fsync), and a drain through a started {@link Pipeline} with
 * a no-op sink until the node's {@code bytes} counter is back to 0 (every row claimed, delivered
 * and settled; each claim and each settle a synced commit).
 */
final class AnkusaCells {

    /** Hooks in flight at once during ingest, below the writer's queue capacity. */
    static final int IN_FLIGHT = 8_192;

    private final Path root;
    /** What each cell's store is wrapped in; null: none, the queue opened as a user opens it. */
    private final UnaryOperator<Store> wrap;

    AnkusaCells(Path root) {
        this(root, null);
    }

    /** Cells whose queues write through their store wrapped by {@code wrap} (a bench's instrument). */
    AnkusaCells(Path root, UnaryOperator<Store> wrap) {
        this.root = root;
        this.wrap = wrap;
    }

    /** Told of a drain cell's timed part: just before its pipeline starts, and once the backlog is delivered. */
    interface DrainWatch {

        /** Watches nothing. */
        DrainWatch NONE = new DrainWatch() {
        };

        /** The backlog is loaded; the pipeline starts next and the timer with it. */
        default void starting() {
        }

        /** Every row is delivered and settled; the pipeline is still running (its threads alive). */
        default void delivered() {
        }
    }

    /** The result of an ingest cell: seconds and the queue's pending count afterwards. */
    record Ingested(double seconds, long pending, long refused) {
    }

    /**
     * Ingests hooks {@code 0 … warmUp - 1} untimed, then {@code warmUp … count - 1} from
     * {@code producers} threads; the seconds of the second part.
     */
    Ingested ingest(String backend, Workload work, int warmUp, int producers) throws Exception {
        Path dir = Files.createTempDirectory(root, "outbox-ingest-" + backend + "-");
        try (Queue queue = open(backend, dir)) {
            AtomicLong refused = new AtomicLong();
            feed(queue, work, 0, warmUp, 1, refused);
            double seconds = feed(queue, work, warmUp, work.count(), producers, refused);
            return new Ingested(seconds, queue.stats().pending(), refused.get());
        } finally {
            delete(dir);
        }
    }

    /** The result of a drain cell: seconds, sink calls and whether the counters are all back to 0. */
    record Drained(double seconds, long calls, boolean countersZero) {
    }

    /**
     * Ingests every hook of {@code work} untimed, then drains them through a pipeline with at most
     * {@code inFlight} deliveries at once (its {@code concurrency}; {@code rowsPerTick} its default);
     * every delivery increments {@code seen} at its hook's index.
     */
    Drained drain(String backend, Workload work, int inFlight, AtomicIntegerArray seen) throws Exception {
        return drain(backend, work, inFlight, seen, DrainWatch.NONE);
    }

    /** {@link #drain(String, Workload, int, AtomicIntegerArray)}, telling {@code watch} of its timed part. */
    Drained drain(String backend, Workload work, int inFlight, AtomicIntegerArray seen, DrainWatch watch)
            throws Exception {
        Path dir = Files.createTempDirectory(root, "outbox-drain-" + backend + "-");
        try (Queue queue = open(backend, dir)) {
            AtomicLong refused = new AtomicLong();
            feed(queue, work, 0, work.count(), 2, refused);
            if (refused.get() != 0) {
                throw new IllegalStateException(refused.get() + " hooks refused while loading the backlog");
            }
            AtomicLong calls = new AtomicLong();
            long start;
            try (Pipeline pipeline = Pipeline.builder(queue, d -> {
                seen.incrementAndGet(Workload.indexOf(d.hookId()));
                calls.incrementAndGet();
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }).concurrency(inFlight).manual()) {
                watch.starting();
                start = System.nanoTime();
                pipeline.start();
                Drains.await(queue, calls, work.count());
                watch.delivered();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            var stats = queue.stats();
            boolean zero = stats.pending() == 0 && stats.scheduled() == 0 && stats.inflight() == 0 && stats.dead() == 0
                    && stats.bytes() == 0;
            return new Drained(seconds, calls.get(), zero);
        } finally {
            delete(dir);
        }
    }

    private Queue open(String backend, Path dir) {
        QueueConfig config = QueueConfig.builder(dir).backend(backend).build();
        return wrap == null ? Queue.open(config) : TestQueue.open(config, Migrations.NONE, wrap);
    }

    /** Ingests hooks {@code from … to - 1} from {@code producers} threads; the seconds until every one is acknowledged. */
    private static double feed(Queue queue, Workload work, int from, int to, int producers, AtomicLong refused)
            throws Exception {
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        AtomicLong next = new AtomicLong(from);
        ExecutorService pool = Executors.newFixedThreadPool(producers);
        try {
            long start = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                running.add(pool.submit(() -> {
                    long i;
                    while ((i = next.getAndIncrement()) < to) {
                        int hook = (int) i;
                        inFlight.acquireUninterruptibly();
                        queue.ingest(Hook.builder().id(work.id(hook)).sourceId("bench").tenantId(work.tenant(hook))
                                .payload(work.payload(hook)).sinks(0).build()).whenComplete((r, e) -> {
                                    if (e != null) {
                                        refused.incrementAndGet();
                                    }
                                    inFlight.release();
                                });
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            if (!inFlight.tryAcquire(IN_FLIGHT, 10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("hooks not acknowledged after 10 minutes");
            }
            return (System.nanoTime() - start) / 1e9;
        } finally {
            pool.shutdown();
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
