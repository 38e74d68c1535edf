package io.ankusa.bench;

import io.ankusa.api.DiskUsage;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import io.ankusa.queue.engine.QueueEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The disk bench: what the store takes per hook, per backend, for the sizing table of
 * docs/deployment.md ("Sizing").
 *
 * <p>Each cell runs on a fresh store: {@code ankusa.bench.diskHooks} hooks (default 20 000) over
 * 1 000 tenants, one sink, a 512-byte JSON payload, ingested and delivered in chunks of 500 (so the
 * backlog stays small and LMDB's high-water mark is the history's, not a backlog's), then one
 * housekeeping round (reclaim). The store is measured with {@link Queue#diskUsage()} after a
 * checkpoint (which on RocksDB flushes the memtables into SST files, so the figure is files, not
 * memtable arenas), before and after the cell's load:
 *
 * <ul>
 * <li><b>queued</b>: ingested, not delivered: the backlog's cost per hook;</li>
 * <li><b>delivered, no history</b>: {@code attempts.per-delivery} 0: what a delivered hook leaves
 *     (RocksDB: tombstones until compaction; LMDB: nothing, its pages are reused);</li>
 * <li><b>delivered</b>: the defaults (history kept): a delivered hook's cost, its history entry included;</li>
 * <li><b>retried</b>: each delivery fails once (a retry policy of 1 ms), then is delivered: the extra
 *     cost of a retried attempt is this cell less the last, per hook;</li>
 * <li><b>dead</b>: each delivery is dead-lettered at its first attempt: a dead letter's cost, its
 *     hook, delivery row, dead index keys and history entry.</li>
 * </ul>
 *
 * <p>A history entry's cost on disk is "delivered" less "delivered, no history"; its logical size
 * is the {@code history_bytes} counter over the attempts made. Rules: every delivered cell delivers
 * all its hooks, the history counter is 0 without history and positive with it, and every growth is
 * at least 0. Prints a Markdown table; exits non-zero when a rule fails.
 *
 * <p>System properties: {@code ankusa.bench.backends} (default, or empty: {@code rocksdb,lmdb}),
 * {@code ankusa.bench.dir}, {@code ankusa.bench.diskHooks}.
 */
public final class DiskBench {

    private static final int TENANTS = 1_000;
    private static final int CHUNK = 500;
    private static final int PAYLOAD_BYTES = 512;

    private DiskBench() {
    }

    /** What a cell's sink does with a delivery. */
    private enum Load { QUEUED, DELIVERED_NO_HISTORY, DELIVERED, RETRIED, DEAD }

    /** One cell's measurement: store growth and history bytes, and the attempts made. */
    private record Cell(long storeGrowth, long historyBytes, long attempts) {
    }

    /**
     * Runs the bench.
     *
     * @param args unused
     * @throws IOException when a store directory cannot be made or removed
     */
    public static void main(String[] args) throws IOException {
        List<String> chosen = Arrays.stream(System.getProperty("ankusa.bench.backends", "").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        List<String> backends = chosen.isEmpty() ? List.of("rocksdb", "lmdb") : chosen;
        int hooks = Integer.getInteger("ankusa.bench.diskHooks", 20_000);
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        List<String> failures = new ArrayList<>();
        Map<String, Map<Load, Cell>> results = new LinkedHashMap<>();
        for (String backend : backends) {
            Map<Load, Cell> cells = new LinkedHashMap<>();
            for (Load load : Load.values()) {
                Path dir = Files.createTempDirectory(root, "disk-" + backend + "-");
                try {
                    long started = System.nanoTime();
                    Cell cell = run(backend, dir, load, hooks, failures);
                    cells.put(load, cell);
                    System.out.printf(Locale.ROOT, "%s %s: store +%,d bytes, history %,d bytes, %,d attempts, %.1f s%n",
                            backend, load, cell.storeGrowth(), cell.historyBytes(), cell.attempts(),
                            (System.nanoTime() - started) / 1e9);
                } finally {
                    delete(dir);
                }
            }
            results.put(backend, cells);
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Disk bench: %,d hooks a cell over %,d tenants, one sink, %d-byte payload, "
                + "delivered in chunks of %d; store measured after a checkpoint; Java %s%n%n", hooks, TENANTS,
                PAYLOAD_BYTES, CHUNK, System.getProperty("java.version"));
        System.out.println(table(results, hooks));
        if (!failures.isEmpty()) {
            failures.forEach(f -> System.out.println("FAILED: " + f));
            System.exit(1);
        }
        System.out.println("All bench rules hold.");
    }

    static String table(Map<String, Map<Load, Cell>> results, int hooks) {
        StringBuilder out = new StringBuilder()
                .append("| backend | per queued hook | per delivered hook, no history | per delivered hook "
                        + "| per history entry (disk) | per history entry (counted) | per retried attempt "
                        + "| per dead letter |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        results.forEach((backend, cells) -> {
            double queued = per(cells.get(Load.QUEUED).storeGrowth(), hooks);
            double bare = per(cells.get(Load.DELIVERED_NO_HISTORY).storeGrowth(), hooks);
            Cell delivered = cells.get(Load.DELIVERED);
            double withHistory = per(delivered.storeGrowth(), hooks);
            double entryCounted = per(delivered.historyBytes(), delivered.attempts());
            double retried = per(cells.get(Load.RETRIED).storeGrowth(), hooks) - withHistory;
            double dead = per(cells.get(Load.DEAD).storeGrowth(), hooks);
            out.append(String.format(Locale.ROOT, "| %s | %,.0f B | %,.0f B | %,.0f B | %,.0f B | %,.0f B | %,.0f B "
                    + "| %,.0f B |%n", backend, queued, bare, withHistory, withHistory - bare, entryCounted, retried,
                    dead));
        });
        return out.toString();
    }

    private static double per(long bytes, long count) {
        return count == 0 ? 0 : (double) bytes / count;
    }

    private static Cell run(String backend, Path dir, Load load, int hooks, List<String> failures) throws IOException {
        QueueConfig.Builder config = QueueConfig.builder(dir.resolve("store")).backend(backend)
                .housekeepingInterval(Duration.ZERO);
        if (load == Load.DELIVERED_NO_HISTORY) {
            config.attemptsPerDelivery(0);
        }
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        AtomicInteger attempts = new AtomicInteger();
        Sink sink = d -> {
            attempts.incrementAndGet();
            int call = calls.computeIfAbsent(d.hookId(), id -> new AtomicInteger()).incrementAndGet();
            SinkOutcome outcome = switch (load) {
                case DEAD -> SinkOutcome.dead("gone for good");
                case RETRIED -> call == 1 ? SinkOutcome.retry("busy") : SinkOutcome.delivered(200);
                default -> SinkOutcome.delivered(200);
            };
            return CompletableFuture.completedFuture(outcome);
        };
        SplittableRandom random = new SplittableRandom(42);
        try (Queue queue = Queue.open(config.build())) {
            long before = measure(queue, dir);
            // Retries due 1 ms after their attempt, so a chunk drains in a few ticks.
            RetryPolicy retries = RetryPolicy.builder().schedule(List.of(Duration.ofMillis(1))).jitter(0).build();
            try (Pipeline pipeline = Pipeline.builder(queue, sink).rowsPerTick(4_096).retryPolicy(retries).manual()) {
                for (int from = 0; from < hooks; from += CHUNK) {
                    List<CompletableFuture<?>> receipts = new ArrayList<>(CHUNK);
                    for (int i = from; i < Math.min(hooks, from + CHUNK); i++) {
                        receipts.add(queue.ingest(hook(i, random)));
                    }
                    CompletableFuture.allOf(receipts.toArray(CompletableFuture[]::new)).join();
                    if (load != Load.QUEUED) {
                        drain(queue, pipeline);
                    }
                }
            }
            QueueEngine.of(queue).housekeeping().runOnce();
            QueueStats stats = queue.stats();
            long expectedDead = load == Load.DEAD ? hooks : 0;
            long expectedPending = load == Load.QUEUED ? hooks : 0;
            if (stats.pending() != expectedPending || stats.dead() != expectedDead || stats.scheduled() != 0) {
                failures.add(backend + " " + load + ": the load did not end as planned: " + stats);
            }
            DiskUsage after = queue.diskUsage();
            long grown = measure(queue, dir) - before;
            boolean history = load != Load.QUEUED && load != Load.DELIVERED_NO_HISTORY;
            if (history != (after.historyBytes() > 0)) {
                failures.add(backend + " " + load + ": history bytes " + after.historyBytes());
            }
            if (grown < 0 && load != Load.DELIVERED_NO_HISTORY) {
                failures.add(backend + " " + load + ": the store shrank by " + -grown + " bytes");
            }
            return new Cell(grown, after.historyBytes(), attempts.get());
        }
    }

    /** Ticks until nothing is pending, scheduled or inflight (retries after 1 ms come due on the next ticks). */
    private static void drain(Queue queue, Pipeline pipeline) {
        for (int tick = 0; tick < 100_000; tick++) {
            QueueStats s = queue.stats();
            if (s.pending() + s.scheduled() + s.inflight() == 0) {
                return;
            }
            try {
                pipeline.tick().toCompletableFuture().get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("a tick failed", e);
            }
            if (s.pending() == 0 && s.inflight() == 0) {
                // Only retries wait, due 1 ms after their attempt: let the wall clock pass it.
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
        }
        throw new IllegalStateException("the queue did not drain: " + queue.stats());
    }

    /** The store's size after a checkpoint (on RocksDB it flushes the memtables), the copy removed. */
    private static long measure(Queue queue, Path dir) throws IOException {
        Path copy = dir.resolve("checkpoint");
        queue.checkpoint(copy);
        delete(copy);
        return queue.diskUsage().storeBytes();
    }

    private static Hook hook(int i, SplittableRandom random) {
        StringBuilder payload = new StringBuilder("{\"type\":\"order.paid\",\"id\":\"ord_");
        while (payload.length() < PAYLOAD_BYTES - 2) {
            payload.append(Integer.toHexString(random.nextInt(16)));
        }
        payload.append("\"}");
        return Hook.builder().id("msg_" + i).sourceId("bench").tenantId("tenant-" + (i % TENANTS)).sinks(0)
                .payload(payload.toString().getBytes(StandardCharsets.UTF_8)).build();
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
