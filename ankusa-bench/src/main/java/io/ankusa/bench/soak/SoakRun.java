package io.ankusa.bench.soak;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;

/**
 * The soak run on one backend, in this JVM: a steady ingest rate (default 300 hooks/s over 1 000
 * tenants, 256-byte payloads, one sink) through {@link Queue#ingest} into a started
 * {@link Pipeline} whose sink answers "delivered" at once, so the backlog stays empty. Every 10 s
 * it samples the store's size on disk, its {@code *.log} files, the resident set
 * ({@code VmRSS}), the heap in use after a full GC, open file descriptors and live threads. After
 * the warm-up it fits a least-squares line per measure and prints its slope per minute with the
 * noise of the series ({@link Trend}: residual standard deviation and the slope's standard error)
 * and whether it is flat: the line's rise over the window at most twice the residual standard
 * deviation, or at most a floor when that is larger ({@value #MEMORY_FLOOR_MIB} MiB for memory; for
 * the store 64 KiB or 1 % of its level: a series constant but for one page step has a residual sd
 * near zero, and one step must not read as growth). Where memory goes is sampled too: the
 * anonymous resident set, the JVM's own native memory by Native Memory Tracking (the child runs
 * with {@code -XX:NativeMemoryTracking=summary}; a {@code summary.diff} against the end of the
 * warm-up is printed at the end), what is resident outside the JVM (the difference), and on
 * RocksDB its memtables, table readers and block cache ({@link NativeMemoryProbe}), per column
 * family at the end. On RocksDB it also prints the block cache's usage from RocksDB's periodic stats dumps.
 * At the end it stops ingest, lets the backlog drain, closes, and times a reopen (the restart
 * time: RocksDB replays its live log). Exits 1 when the store size or the resident set is not
 * flat, the store-size slope exceeds {@value #STORE_SLOPE_LIMIT_MIB} MiB/min, the resident-set
 * slope exceeds {@value #RSS_SLOPE_LIMIT_MIB} MiB/min, or an ingest was refused.
 *
 * <p>Usually started by {@link SoakSuite} (one child JVM per backend, a fixed pre-touched heap so
 * that resident growth is native growth). Argument: the backend. System properties:
 * {@code ankusa.soak.minutes} (30), {@code ankusa.soak.warmupMinutes} (10), {@code ankusa.soak.rate}
 * (hooks per second, 300), {@code ankusa.soak.tenants} (1 000), {@code ankusa.soak.sampleSeconds}
 * (10), {@code ankusa.soak.dir} (the parent of the store directory), {@code ankusa.soak.storeSettings}
 * (comma-separated {@code key=value} store settings; each backend takes those under its own prefix,
 * e.g. {@code rocksdb.blockCacheBytes=8388608}), {@code ankusa.soak.attemptsRetention} (the attempt
 * history's {@code attempts.retention}, {@code 5m}; empty: the queue's 7 days, under which the
 * history grows for a week).
 */
public final class SoakRun {

    /** The store-size slope above which the run fails, MiB per minute (before the log bound: 12.5). */
    static final double STORE_SLOPE_LIMIT_MIB = 1.0;
    /** The resident-set slope above which the run fails, MiB per minute (before the log bound: about 9). */
    static final double RSS_SLOPE_LIMIT_MIB = 2.0;
    /** Marks the start of the report in the output, for {@link SoakSuite}. */
    static final String REPORT_MARK = "## soak report";

    private static final int PAYLOAD = 256;
    private static final int TICKS_PER_SECOND = 10;
    private static final double MIB = 1 << 20;

    /** The floor of "flat" for the resident set and the other memory series: 2 MiB over the window (class comment). */
    static final double MEMORY_FLOOR_MIB = 2.0;
    /** The floor of "flat" for the store size: 64 KiB over the window, or 1 % of the level when that is more. */
    static final double STORE_FLOOR_MIB = 64.0 / 1024;
    /** The store-size floor as a share of the store's level after the warm-up. */
    static final double STORE_FLOOR_SHARE = 0.01;

    /**
     * One sample. Memory beyond the resident set: {@code residentAnon} ({@code RssAnon}), the JVM's
     * own native memory by NMT ({@code nmtCommitted}, -1 without NMT), and on RocksDB its
     * memtables (active, then all including immutable and pinned ones), table readers, block cache
     * usage and its pinned part (0 on LMDB). What the store's size is made of: table files
     * ({@code *.sst}), RocksDB's info log ({@code LOG*}) and manifest ({@code MANIFEST-*}) on disk,
     * and RocksDB's own view of its tables ({@link NativeMemoryProbe#ROCKS_TABLES}; 0 on LMDB).
     */
    private record Sample(double minute, long storeBytes, long logFiles, long logBytes, long residentBytes,
            long heapAfterGc, long openFiles, long threads, long ingested, long delivered, long residentAnon,
            long nmtCommitted, long memtables, long memtablesAll, long tableReaders, long blockCache,
            long blockCachePinned, long sstBytes, long infoLogBytes, long manifestBytes, long totalSst, long liveSst,
            long liveData, long levelZeroFiles, long tableFiles) {

        /** Anonymous resident memory the JVM does not account for: native libraries' mallocs (RocksDB's) and glibc's overhead. */
        long outsideJvm() {
            return nmtCommitted < 0 ? -1 : residentAnon - nmtCommitted;
        }
    }

    private SoakRun() {
    }

    /** Runs the soak; see the class comment. */
    public static void main(String[] args) throws Exception {
        String backend = args.length > 0 ? args[0] : System.getProperty("ankusa.soak.backend", "rocksdb");
        double minutes = Double.parseDouble(System.getProperty("ankusa.soak.minutes", "30"));
        double warmUp = Double.parseDouble(System.getProperty("ankusa.soak.warmupMinutes", "10"));
        int rate = Integer.getInteger("ankusa.soak.rate", 300);
        int tenants = Integer.getInteger("ankusa.soak.tenants", 1_000);
        double sampleSeconds = Double.parseDouble(System.getProperty("ankusa.soak.sampleSeconds", "10"));
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.soak.dir",
                System.getProperty("java.io.tmpdir"))));
        Path dir = Files.createTempDirectory(root, "soak-" + backend + "-");
        QueueConfig.Builder builder = QueueConfig.builder(dir).backend(backend);
        String storeSettings = System.getProperty("ankusa.soak.storeSettings", "");
        for (String setting : storeSettings.split(",")) {
            if (setting.startsWith(backend + ".")) {
                String[] keyValue = setting.split("=", 2);
                builder.storeSetting(keyValue[0], keyValue[1]);
            }
        }
        // The attempt history keeps every attempt for attempts.retention (7 days by default): a steady
        // state within the run needs a retention shorter than the warm-up.
        String attemptsRetention = System.getProperty("ankusa.soak.attemptsRetention", "5m");
        if (!attemptsRetention.isBlank()) {
            builder.configure(Map.of("attempts.retention", attemptsRetention));
        }
        QueueConfig config = builder.build();

        List<Sample> samples = new ArrayList<>();
        AtomicLong ingested = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicReference<Throwable> firstRefusal = new AtomicReference<>();
        AtomicLong delivered = new AtomicLong();
        long restartNanos;
        long storeAtClose;
        long logFilesAtClose;
        Queue queue = Queue.open(config);
        try {
            Pipeline pipeline = Pipeline.builder(queue, d -> {
                delivered.incrementAndGet();
                return CompletableFuture.completedFuture(SinkOutcome.delivered());
            }).manual();
            ScheduledExecutorService producer = Executors.newSingleThreadScheduledExecutor();
            try {
                pipeline.start();
                byte[] body = new byte[PAYLOAD];
                AtomicLong sequence = new AtomicLong();
                int perTick = Math.max(1, rate / TICKS_PER_SECOND);
                producer.scheduleAtFixedRate(() -> {
                    for (int i = 0; i < perTick; i++) {
                        long n = sequence.getAndIncrement();
                        queue.ingest(Hook.builder().id("h" + n).sourceId("soak").tenantId("tenant-" + (n % tenants))
                                .payload(body).sinks(0).build()).whenComplete((receipt, failure) -> {
                                    if (failure == null) {
                                        ingested.incrementAndGet();
                                    } else {
                                        refused.incrementAndGet();
                                        firstRefusal.compareAndSet(null, failure);
                                    }
                                });
                    }
                }, 0, 1000 / TICKS_PER_SECOND, TimeUnit.MILLISECONDS);

                long start = System.nanoTime();
                long end = start + (long) (minutes * 60e9);
                long step = (long) (sampleSeconds * 1e9);
                NativeMemoryProbe memory = NativeMemoryProbe.of(queue);
                System.out.println("minute,storeMiB,logFiles,logMiB,rssMiB,heapAfterGcMiB,openFiles,threads,ingested,delivered,"
                        + "rssAnonMiB,nmtCommittedMiB,outsideJvmMiB,memtablesMiB,memtablesAllMiB,tableReadersMiB,"
                        + "blockCacheMiB,blockCachePinnedMiB,sstMiB,infoLogMiB,manifestMiB,totalSstMiB,liveSstMiB,"
                        + "liveDataMiB,l0Files,tableFiles");
                boolean baseline = false;
                for (long next = start + step; next <= end; next += step) {
                    // Pacing a program, not synchronising a test: the samples are 10 s apart by design.
                    LockSupport.parkNanos(next - System.nanoTime());
                    double minute = (System.nanoTime() - start) / 60e9;
                    if (!baseline && minute >= warmUp) {
                        // NMT's baseline at the end of the warm-up: the diff at the end is the steady window's growth.
                        NativeMemoryProbe.nativeMemory("baseline");
                        baseline = true;
                    }
                    long[] split = NativeMemoryProbe.residentSplit();
                    Map<String, Long> rocks = memory.rocksTotals();
                    Map<String, Long> tables = memory.rocksTables();
                    Sample s = new Sample(minute, ProcessProbe.directoryBytes(dir),
                            ProcessProbe.fileCount(dir, ".log"), ProcessProbe.fileBytes(dir, ".log"),
                            ProcessProbe.residentBytes(), ProcessProbe.heapAfterGc(), ProcessProbe.openFiles(),
                            ProcessProbe.threads(), ingested.get(), delivered.get(), split[0],
                            NativeMemoryProbe.nmtCommitted(), rocks.getOrDefault("rocksdb.cur-size-all-mem-tables", 0L),
                            rocks.getOrDefault("rocksdb.size-all-mem-tables", 0L),
                            rocks.getOrDefault("rocksdb.estimate-table-readers-mem", 0L),
                            rocks.getOrDefault("rocksdb.block-cache-usage", 0L),
                            rocks.getOrDefault("rocksdb.block-cache-pinned-usage", 0L),
                            ProcessProbe.fileBytes(dir, ".sst"), ProcessProbe.prefixBytes(dir, "LOG"),
                            ProcessProbe.prefixBytes(dir, "MANIFEST-"),
                            tables.getOrDefault("rocksdb.total-sst-files-size", 0L),
                            tables.getOrDefault("rocksdb.live-sst-files-size", 0L),
                            tables.getOrDefault("rocksdb.estimate-live-data-size", 0L),
                            tables.getOrDefault("rocksdb.num-files-at-level0", 0L),
                            tables.getOrDefault(NativeMemoryProbe.FILES_ALL_LEVELS, 0L));
                    samples.add(s);
                    System.out.printf(Locale.ROOT, "%.2f,%.2f,%d,%.2f,%.1f,%.1f,%d,%d,%d,%d,%.1f,%.1f,%.1f,%.2f,%.2f,%.3f,%.2f,%.2f,"
                            + "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d%n",
                            s.minute(), s.storeBytes() / MIB, s.logFiles(), s.logBytes() / MIB, s.residentBytes() / MIB,
                            s.heapAfterGc() / MIB, s.openFiles(), s.threads(), s.ingested(), s.delivered(),
                            s.residentAnon() / MIB, s.nmtCommitted() / MIB, s.outsideJvm() / MIB, s.memtables() / MIB,
                            s.memtablesAll() / MIB, s.tableReaders() / MIB, s.blockCache() / MIB,
                            s.blockCachePinned() / MIB, s.sstBytes() / MIB, s.infoLogBytes() / MIB,
                            s.manifestBytes() / MIB, s.totalSst() / MIB, s.liveSst() / MIB, s.liveData() / MIB,
                            s.levelZeroFiles(), s.tableFiles());
                }
                System.out.println();
                System.out.println("## NMT summary.diff against the end of the warm-up");
                System.out.println(baseline ? NativeMemoryProbe.nativeMemory("summary.diff") : "(no baseline)");
                if (memory.rocks()) {
                    System.out.println("## RocksDB per family at the end: cur-size-all-mem-tables, size-all-mem-tables, "
                            + "estimate-table-readers-mem (bytes)");
                    memory.rocksByFamily().forEach((family, values) -> System.out.printf(Locale.ROOT,
                            "%s: %d, %d, %d%n", family, values[0], values[1], values[2]));
                    System.out.println("## RocksDB tables per family at the end");
                    memory.rocksTablesByFamily().forEach((family, tables) -> System.out.println(family + ": " + tables));
                }
            } finally {
                producer.shutdown();
                producer.awaitTermination(1, TimeUnit.MINUTES);
                long drainUntil = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                while (queue.stats().bytes() != 0 && System.nanoTime() < drainUntil) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                }
                pipeline.close();
            }
        } finally {
            queue.close();
        }
        storeAtClose = ProcessProbe.directoryBytes(dir);
        logFilesAtClose = ProcessProbe.fileCount(dir, ".log");
        // Before the reopen, which starts a new LOG.
        List<String> cache = ProcessProbe.blockCacheUsage(dir);
        long opening = System.nanoTime();
        try (Queue reopened = Queue.open(config)) {
            restartNanos = System.nanoTime() - opening;
            reopened.stats();
        }

        List<String> failures = new ArrayList<>();
        System.out.println();
        System.out.println(REPORT_MARK + ": " + backend);
        System.out.printf(Locale.ROOT, "%s: %.0f min at %d hooks/s over %,d tenants, %d B payload, no-op sink; "
                + "samples every %.0f s, slopes fitted after a %.0f min warm-up; %,d ingested, %,d refused, "
                + "%,d deliveries; store settings [%s]; attempts.retention %s; Java %s%n%n", backend, minutes, rate, tenants,
                PAYLOAD, sampleSeconds, warmUp, ingested.get(), refused.get(), delivered.get(), storeSettings,
                attemptsRetention.isBlank() ? "default" : attemptsRetention,
                System.getProperty("java.version"));
        List<Sample> steady = samples.stream().filter(s -> s.minute() >= warmUp).toList();
        if (steady.size() < 3) {
            failures.add("only " + steady.size() + " samples after the warm-up: run longer");
        } else {
            double window = steady.get(steady.size() - 1).minute() - steady.get(0).minute();
            System.out.printf(Locale.ROOT, "steady window: %.1f min, %d samples; flat = the line's rise over the window "
                    + "is at most 2 residual sd (the scatter of single samples) or its floor, whichever is larger%n%n", window, steady.size());
            System.out.println("| backend | measure | after warm-up | at end | slope /min | slope s.e. | residual sd "
                    + "| rise over window | floor | flat (rise <= max(2 sd, floor)) | smallest flagged /min | limit /min |");
            System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|");
            double storeFloor = Math.max(STORE_FLOOR_MIB, STORE_FLOOR_SHARE * steady.get(0).storeBytes() / MIB);
            row(backend, "store size (MiB)", steady, s -> s.storeBytes() / MIB, storeFloor, STORE_SLOPE_LIMIT_MIB, true,
                    failures);
            row(backend, "resident set (MiB)", steady, s -> s.residentBytes() / MIB, MEMORY_FLOOR_MIB,
                    RSS_SLOPE_LIMIT_MIB, true, failures);
            row(backend, "heap after GC (MiB)", steady, s -> s.heapAfterGc() / MIB, MEMORY_FLOOR_MIB, Double.NaN, false,
                    failures);
            row(backend, "open files", steady, s -> s.openFiles(), 0, Double.NaN, false, failures);
            row(backend, "threads", steady, s -> s.threads(), 0, Double.NaN, false, failures);
            row(backend, "*.log files", steady, s -> s.logFiles(), 0, Double.NaN, false, failures);
            row(backend, "*.log size (MiB)", steady, s -> s.logBytes() / MIB, storeFloor, Double.NaN, false, failures);
            row(backend, "anonymous resident (MiB)", steady, s -> s.residentAnon() / MIB, MEMORY_FLOOR_MIB, Double.NaN,
                    false, failures);
            if (steady.get(0).blockCache() > 0) {
                row(backend, "table files *.sst (MiB)", steady, s -> s.sstBytes() / MIB, storeFloor, Double.NaN, false,
                        failures);
                row(backend, "info log LOG* (MiB)", steady, s -> s.infoLogBytes() / MIB, storeFloor, Double.NaN, false,
                        failures);
                row(backend, "MANIFEST (MiB)", steady, s -> s.manifestBytes() / MIB, storeFloor, Double.NaN, false,
                        failures);
                row(backend, "live-sst-files-size (MiB)", steady, s -> s.liveSst() / MIB, storeFloor, Double.NaN, false,
                        failures);
                row(backend, "estimate-live-data-size (MiB)", steady, s -> s.liveData() / MIB, storeFloor, Double.NaN,
                        false, failures);
                row(backend, "table files at L0", steady, s -> s.levelZeroFiles(), 0, Double.NaN, false, failures);
                row(backend, "table files, all levels", steady, s -> s.tableFiles(), 0, Double.NaN, false, failures);
            }
            if (steady.get(0).nmtCommitted() >= 0) {
                row(backend, "JVM native, NMT committed (MiB)", steady, s -> s.nmtCommitted() / MIB, MEMORY_FLOOR_MIB,
                        Double.NaN, false, failures);
                row(backend, "anonymous outside the JVM (MiB)", steady, s -> s.outsideJvm() / MIB, MEMORY_FLOOR_MIB,
                        Double.NaN, false, failures);
            }
            if (steady.get(0).blockCache() > 0) {
                row(backend, "memtables, active (MiB)", steady, s -> s.memtables() / MIB, MEMORY_FLOOR_MIB, Double.NaN,
                        false, failures);
                row(backend, "memtables, all (MiB)", steady, s -> s.memtablesAll() / MIB, MEMORY_FLOOR_MIB, Double.NaN,
                        false, failures);
                row(backend, "table readers (MiB)", steady, s -> s.tableReaders() / MIB, MEMORY_FLOOR_MIB, Double.NaN,
                        false, failures);
                row(backend, "block cache usage (MiB)", steady, s -> s.blockCache() / MIB, MEMORY_FLOOR_MIB, Double.NaN,
                        false, failures);
                row(backend, "block cache pinned (MiB)", steady, s -> s.blockCachePinned() / MIB, MEMORY_FLOOR_MIB,
                        Double.NaN, false, failures);
            }
        }
        if (!cache.isEmpty()) {
            System.out.printf(Locale.ROOT, "%nblock cache at RocksDB's stats dumps (every 10 min, from its LOG): %s%n",
                    String.join("; ", cache));
        }
        System.out.printf(Locale.ROOT, "%nrestart: %s reopened in %.0f ms (store %.1f MiB, %d log files at close)%n",
                backend, restartNanos / 1e6, storeAtClose / MIB, logFilesAtClose);
        if (refused.get() != 0) {
            failures.add(refused.get() + " ingests refused, first: " + firstRefusal.get());
        }
        failures.forEach(f -> System.out.println("FAIL " + backend + ": " + f));
        System.out.println(failures.isEmpty() ? "PASS " + backend : "");
        System.exit(failures.isEmpty() ? 0 : 1);
    }

    private static void row(String backend, String measure, List<Sample> steady, ToDoubleFunction<Sample> value,
            double floor, double limit, boolean mustBeFlat, List<String> failures) {
        double[] minutes = steady.stream().mapToDouble(Sample::minute).toArray();
        double[] values = steady.stream().mapToDouble(value).toArray();
        double window = minutes[minutes.length - 1] - minutes[0];
        Trend trend = Trend.fit(minutes, values);
        System.out.printf(Locale.ROOT, "| %s | %s | %.2f | %.2f | %+.4f | %.4f | %.3f | %+.2f | %.3f | %s | %.4f | %s |%n",
                backend, measure, values[0], values[values.length - 1], trend.slopePerMinute(), trend.slopeStdError(),
                trend.residualSd(), trend.drift(window), floor, trend.flat(window, floor) ? "yes" : "no", trend.smallestFlagged(window, floor),
                Double.isNaN(limit) ? "-" : String.format(Locale.ROOT, "%.1f", limit));
        if (!Double.isNaN(limit) && trend.slopePerMinute() > limit) {
            failures.add(measure + " grows " + trend.slopePerMinute() + " per minute, over the limit of " + limit);
        }
        if (mustBeFlat && !trend.flat(window, floor)) {
            failures.add(measure + " rises " + trend.drift(window) + " over the " + window + " min window, more than twice "
                    + "its residual sd " + trend.residualSd() + " and more than its floor " + floor);
        }
    }
}
