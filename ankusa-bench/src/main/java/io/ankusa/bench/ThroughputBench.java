package io.ankusa.bench;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.queue.migration.StoreLayout;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.TestQueue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The throughput bench: what the queue does against what its store could do with the same writes.
 *
 * <p>Per backend, with 1 tenant and with 10 000 tenants: <b>synced ingest</b> (hooks acknowledged
 * per second; {@value #PRODUCERS} producers, up to 8 192 hooks in flight, group commits of up to the default 1 024)
 * and <b>claims + settles</b> (deliveries per second through a started {@link Pipeline} with a
 * no-op sink, until the backlog is delivered). Each phase runs over a {@link CommitLog}, and right
 * before it the store is checkpointed. The <b>raw ceiling</b> replays the phase's recorded
 * commits on the checkpoint, opened as a bare store: what the store alone takes to write what the
 * queue wrote, without the queue's reads, encoding, tenant resolution, futures and threads. For
 * claims + settles it replays them in order from one thread, each with its recorded durability.
 * For synced ingest it writes the same batches unsynced from one thread while a second thread
 * syncs back to back, until a sync after the last write ({@link CommitLog#replayOverlapped}): the
 * same writes under the same rule as the queue (a hook counts once a sync covering its batch
 * returned), with as many syncs as the store itself fits in, not as many as the queue made. The ratio is queue rate / raw rate. Each cell runs three rounds
 * (a fresh queue each): the table shows the round whose queue was fastest against the fastest
 * replay of any round (fsync times and CPU on a shared machine vary from one second to the next).
 *
 * <p>Before a backend's cells, one unreported run of the 1-tenant cell warms the JIT up.
 *
 * <p>Rules: every hook is acknowledged and delivered exactly once with the counters back to zero;
 * synced ingest at 10 000 tenants reaches at least half of its raw ceiling. Prints a Markdown table;
 * exits non-zero when a rule fails.
 *
 * <p>System properties: {@code ankusa.bench.backends} (default {@code rocksdb,lmdb}),
 * {@code ankusa.bench.dir}, {@code ankusa.bench.throughputHooks} (per cell, default 50 000),
 * {@code ankusa.bench.throughputPhases} ({@code ingest}: the synced-ingest cells only),
 * {@code ankusa.bench.throughputTenants} ({@code 1} or {@code 10000}: that cell only).
 */
public final class ThroughputBench {

    static final double MIN_INGEST_SHARE_OF_CEILING = 0.5;
    static final String INGEST = "synced ingest";
    /** {@code -Dankusa.bench.throughputPhases=ingest}: the synced-ingest cells only. */
    static final boolean INGEST_ONLY = "ingest".equals(System.getProperty("ankusa.bench.throughputPhases", ""));
    /** Producer threads: two, so that on a 2-core machine they do not crowd out the writer thread. */
    static final int PRODUCERS = 2;
    static final int IN_FLIGHT = 8_192;
    static final int WARM_UP = 10_000;
    static final int PAYLOAD = 256;
    /** {@code -Dankusa.bench.throughputTenants=1} or {@code 10000}: that cell only (after the warm-up run). */
    static final int[] TENANTS = switch (System.getProperty("ankusa.bench.throughputTenants", "")) {
        case "1" -> new int[] {0, 1};
        case "10000" -> new int[] {0, 10_000};
        default -> new int[] {0, 1, 10_000};
    };
    /** Rounds per cell: the queue's best round against the store's best replay. */
    static final int ROUNDS = 3;

    private ThroughputBench() {
    }

    /** One phase measured against its ceiling. */
    record Cell(String backend, int tenants, String phase, long units, double seconds, long commits, long syncCommits,
            long bytes, double rawSeconds) {

        double rate() {
            return units / seconds;
        }

        double rawRate() {
            return units / rawSeconds;
        }

        double share() {
            return rate() / rawRate();
        }
    }

    /** Runs the bench; see the class comment. */
    public static void main(String[] args) throws Exception {
        List<String> backends = Arrays.stream(System.getProperty("ankusa.bench.backends", "rocksdb,lmdb").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (backends.isEmpty()) {
            backends = List.of("rocksdb", "lmdb");
        }
        int hooks = Integer.getInteger("ankusa.bench.throughputHooks", 50_000);
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        List<String> failures = new ArrayList<>();
        List<Cell> cells = new ArrayList<>();
        for (String backend : backends) {
            for (int tenants : TENANTS) {
                Path dir = Files.createTempDirectory(root, "throughput-" + backend + "-");
                try {
                    if (tenants == 0) {
                        // Warm-up: the same cell, not reported, so that no measured cell runs cold code.
                        run(dir.resolve("warm-up"), backend, 1, hooks, new ArrayList<>());
                        continue;
                    }
                    List<List<Cell>> rounds = new ArrayList<>();
                    for (int round = 0; round < ROUNDS; round++) {
                        rounds.add(run(dir.resolve("round-" + round), backend, tenants, hooks, failures));
                    }
                    for (int phase = 0; phase < rounds.get(0).size(); phase++) {
                        cells.add(best(rounds, phase));
                    }
                } finally {
                    delete(dir);
                }
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Throughput bench: %d B payload, 1 sink, ingest by %d producers with up to %,d "
                + "hooks in flight, claims + settles by a started pipeline (defaults) with a no-op sink; raw = on a "
                + "checkpoint, claims + settles: the recorded commits replayed by one thread; synced ingest: the same "
                + "batches written unsynced by one thread while a second one syncs; best of %d rounds each; Java %s%n%n", PAYLOAD, PRODUCERS,
                IN_FLIGHT, ROUNDS, System.getProperty("java.version"));
        System.out.println(table(cells));
        for (Cell c : cells) {
            if (c.phase().equals(INGEST) && c.tenants() == 10_000 && c.share() < MIN_INGEST_SHARE_OF_CEILING) {
                failures.add(String.format(Locale.ROOT, "%s: synced ingest at %,d tenants is %.0f %% of the raw ceiling, "
                        + "under %.0f %%", c.backend(), c.tenants(), c.share() * 100, MIN_INGEST_SHARE_OF_CEILING * 100));
            }
        }
        if (!failures.isEmpty()) {
            System.out.println();
            failures.forEach(f -> System.out.println("FAILED: " + f));
            System.exit(1);
        }
        System.out.println("All throughput bench rules hold.");
    }

    private static List<Cell> run(Path dir, String backend, int tenants, int hooks, List<String> failures)
            throws Exception {
        List<Cell> out = new ArrayList<>();
        CommitLog[] log = new CommitLog[1];
        // The sink is in-process: no per-endpoint limit (its default, 16, is the HTTP client's per-host pool).
        QueueConfig config = QueueConfig.builder(dir.resolve("queue")).backend(backend)
                .endpoints(io.ankusa.api.EndpointSettings.DEFAULTS.withMaxConcurrency(Integer.MAX_VALUE)).build();
        try (Queue queue = TestQueue.open(config, Migrations.NONE, s -> log[0] = new CommitLog(s))) {
            CommitLog store = log[0];
            ingest(queue, 0, WARM_UP, tenants);

            Path ingestCheckpoint = dir.resolve("before-ingest");
            store.checkpoint(ingestCheckpoint);
            store.start();
            long start = System.nanoTime();
            ingest(queue, WARM_UP, hooks, tenants);
            double seconds = (System.nanoTime() - start) / 1e9;
            List<CommitLog.Commit> commits = store.stop();
            out.add(cell(backend, tenants, INGEST, hooks, seconds, commits, ingestCheckpoint));
            long total = WARM_UP + (long) hooks;
            if (queue.stats().pending() != total || queue.tenantCount() != tenants) {
                failures.add(backend + " " + tenants + " tenants: pending " + queue.stats().pending() + " of " + total
                        + ", tenants " + queue.tenantCount());
            }

            if (INGEST_ONLY) {
                return out;
            }
            Path dispatchCheckpoint = dir.resolve("before-dispatch");
            store.checkpoint(dispatchCheckpoint);
            AtomicLong delivered = new AtomicLong();
            store.start();
            start = System.nanoTime();
            try (Pipeline pipeline = Pipeline.builder(queue, d -> {
                delivered.incrementAndGet();
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }).manual()) {
                pipeline.start();
                Drains.await(queue, delivered, total);
            }
            seconds = (System.nanoTime() - start) / 1e9;
            commits = store.stop();
            out.add(cell(backend, tenants, "claims + settles", total, seconds, commits, dispatchCheckpoint));
            if (delivered.get() != total || !queue.stats().equals(new QueueStats(0, 0, 0, 0, 0, 0))) {
                failures.add(backend + " " + tenants + " tenants: " + delivered.get() + " sink calls for " + total
                        + " hooks, counters " + queue.stats());
            }
        }
        return out;
    }

    private static void ingest(Queue queue, long first, int count, int tenants) throws Exception {
        byte[] body = new byte[PAYLOAD];
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        AtomicLong next = new AtomicLong(first);
        AtomicLong refused = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS);
        try {
            List<Future<?>> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                producers.add(pool.submit(() -> {
                    long i;
                    while ((i = next.getAndIncrement()) < first + count) {
                        inFlight.acquireUninterruptibly();
                        Hook hook = Hook.builder().id("h" + i).sourceId("bench").tenantId("tenant-" + (i % tenants))
                                .payload(body).sinks(0).build();
                        queue.ingest(hook).whenComplete((r, e) -> {
                            if (e != null) {
                                refused.incrementAndGet();
                            }
                            inFlight.release();
                        });
                    }
                    return null;
                }));
            }
            for (Future<?> f : producers) {
                f.get();
            }
            if (!inFlight.tryAcquire(IN_FLIGHT, 10, TimeUnit.MINUTES) || refused.get() != 0) {
                throw new IllegalStateException(refused.get() + " hooks refused at ingest");
            }
        } finally {
            pool.shutdown();
        }
    }

    /** The round whose queue was fastest, against the fastest replay of any round. */
    private static Cell best(List<List<Cell>> rounds, int phase) {
        List<Cell> cells = rounds.stream().map(r -> r.get(phase)).toList();
        Cell fastest = cells.stream().max(Comparator.comparingDouble(Cell::rate)).orElseThrow();
        double raw = cells.stream().mapToDouble(Cell::rawSeconds).min().orElseThrow();
        return new Cell(fastest.backend(), fastest.tenants(), fastest.phase(), fastest.units(), fastest.seconds(),
                fastest.commits(), fastest.syncCommits(), fastest.bytes(), raw);
    }

    /** Replays {@code commits} on the checkpoint and builds the cell. */
    private static Cell cell(String backend, int tenants, String phase, long units, double seconds,
            List<CommitLog.Commit> commits, Path checkpoint) {
        long bytes = commits.stream().mapToLong(c -> c.batch().approximateBytes()).sum();
        long synced = commits.stream().filter(c -> c.durability() == Durability.SYNC).count();
        double raw;
        String how = "";
        try (Store store = Stores.open(backend, StoreOptions.existing(checkpoint, StoreLayout.families()))) {
            if (phase.equals(INGEST)) {
                // Synced ingest: the store's own best under the same rule (see CommitLog.replayOverlapped),
                // not the queue's recorded syncs, whose number depends on the queue's speed.
                CommitLog.Overlapped replay = CommitLog.replayOverlapped(commits, store);
                raw = replay.seconds();
                how = String.format(Locale.ROOT, ", raw: %d batches, %d syncs overlapped", replay.batches(), replay.syncs());
            } else {
                raw = CommitLog.replay(commits, store);
            }
        }
        Cell cell = new Cell(backend, tenants, phase, units, seconds, commits.size(), synced, bytes, raw);
        System.out.printf(Locale.ROOT, "%s, %,d tenants, %s: %,.0f/s, raw %,.0f/s (%d commits%s; by thread, synced in"
                + " brackets: %s; per unit by family, put/delete/merge/range and bytes: %s)%n", backend, tenants, phase,
                cell.rate(), cell.rawRate(), commits.size(), how, CommitLog.byThread(commits),
                CommitLog.opsByFamily(commits, units));
        return cell;
    }

    static String table(List<Cell> cells) {
        StringBuilder out = new StringBuilder()
                .append("| backend | tenants | phase | units | commits (synced) | MiB written | queue /s | raw ceiling /s "
                        + "| queue / raw |\n")
                .append("|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (Cell c : cells) {
            out.append(String.format(Locale.ROOT, "| %s | %,d | %s | %,d | %,d (%,d) | %.1f | %,.0f | %,.0f | %.0f %% |%n",
                    c.backend(), c.tenants(), c.phase(), c.units(), c.commits(), c.syncCommits(), c.bytes() / 1048576.0,
                    c.rate(), c.rawRate(), c.share() * 100));
        }
        return out.toString();
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
