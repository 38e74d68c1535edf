package io.ankusa.bench.outbox;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Where a drain cell of the outbox bench spends its time: the Ankusa side of
 * {@link PostgresOutboxBench}'s drain alone, the same workload and queue, with each thread's CPU
 * time and its commits timed by thread ({@link CommitTimes}). No PostgreSQL, no rules: it prints,
 * per round, the rate and one row per thread of the queue:
 *
 * <ul>
 * <li><b>CPU s</b>: the thread's CPU time during the timed part ({@code ThreadMXBean}); the last
 *     row is the rest of the process (the JIT compilers, GC, the store's own threads), and a line
 *     under the table says how long the JIT compiled and GC collected meanwhile;</li>
 * <li>under it, on Linux, the process's write system calls and the bytes passed to them
 *     ({@code /proc/self/io}): on LMDB, one {@code pwrite} per dirty page a commit writes out
 *     that is not next to another one;</li>
 * <li><b>commits</b> (synced ones in brackets), <b>s in commit</b> (wall time inside
 *     {@code Store.commit}: on LMDB including the wait for the write lock), per commit, and ops per
 *     commit.</li>
 * </ul>
 *
 * <p>A thread whose CPU time is well below the drain's wall time while the drain is not bound by
 * its commits is waiting — for a lock, or for a core on a 2-core machine. Round 1 pays for the JIT
 * (a C2 compiler thread is busy for most of it); read rounds 2 and later.
 *
 * <pre>
 * java -cp &lt;test class path&gt; -Dankusa.bench.backends=lmdb -Dankusa.bench.profileTenants=10000 \
 *     -Dankusa.bench.profileInFlight=256 io.ankusa.bench.outbox.DrainProfile
 * </pre>
 *
 * <p>System properties: {@code ankusa.bench.backends} (default {@code rocksdb,lmdb}),
 * {@code ankusa.bench.profileTenants} (comma-separated, default {@code 1,10000}),
 * {@code ankusa.bench.profileInFlight} (comma-separated, default {@code 1024,256}),
 * {@code ankusa.bench.profileHooks} (default 100 000), {@code ankusa.bench.profileRounds}
 * (default 3), {@code ankusa.bench.dir}.
 */
public final class DrainProfile {

    private DrainProfile() {
    }

    /** Runs the profile; see the class comment. */
    public static void main(String[] args) throws Exception {
        List<String> backends = Arrays.asList(System.getProperty("ankusa.bench.backends", "rocksdb,lmdb").split(","));
        int[] tenantCounts = ints(System.getProperty("ankusa.bench.profileTenants", "1,10000"));
        int[] inFlights = ints(System.getProperty("ankusa.bench.profileInFlight", "1024,256"));
        int hooks = Integer.getInteger("ankusa.bench.profileHooks", 100_000);
        int rounds = Integer.getInteger("ankusa.bench.profileRounds", 3);
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        CommitTimes[] store = new CommitTimes[1];
        AnkusaCells cells = new AnkusaCells(root, s -> store[0] = new CommitTimes(s));
        System.out.printf(Locale.ROOT, "Drain profile: %,d hooks of %d B, 1 sink, a no-op sink; Java %s, %d cores%n",
                hooks, Workload.PAYLOAD, System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
        for (String backend : backends) {
            for (int tenants : tenantCounts) {
                Workload work = Workload.zipf(hooks, tenants, 15);
                for (int inFlight : inFlights) {
                    for (int round = 1; round <= rounds; round++) {
                        Watch watch = new Watch(store);
                        AnkusaCells.Drained drained = cells.drain(backend, work, inFlight,
                                new AtomicIntegerArray(hooks), watch);
                        if (drained.calls() != hooks || !drained.countersZero()) {
                            throw new IllegalStateException(backend + ": " + drained.calls() + " sink calls for "
                                    + hooks + " hooks, counters zero: " + drained.countersZero());
                        }
                        System.out.printf(Locale.ROOT, "%n%s, %,d tenants, <= %,d in flight, round %d: %,.0f deliveries/s "
                                + "(%.2f s)%n%n", backend, tenants, inFlight, round, hooks / drained.seconds(),
                                drained.seconds());
                        watch.print(hooks);
                    }
                }
            }
        }
    }

    /**
     * The kind of thread a name says: its name without the digits and dashes at its end (the
     * threads of a pool as one).
     */
    static String threadKind(String name) {
        return name.replaceAll("[-0-9]+$", "");
    }

    private static int[] ints(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
    }

    /** The threads' CPU times and the commits of one drain's timed part. */
    private static final class Watch implements AnkusaCells.DrainWatch {

        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
        private static final OperatingSystemMXBean PROCESS = ManagementFactory
                .getPlatformMXBean(OperatingSystemMXBean.class);

        private final CommitTimes[] store;
        private Map<Long, Long> cpuAtStart;
        private long processAtStart;
        private final Map<String, Long> cpuNanos = new TreeMap<>();
        private long processNanos;
        private long compileMillisAtStart;
        private long compileMillis;
        private long gcMillisAtStart;
        private long gcMillis;
        private long[] ioAtStart;
        private long[] io;
        private Map<String, CommitTimes.Tally> commits = Map.of();

        Watch(CommitTimes[] store) {
            this.store = store;
        }

        @Override
        public void starting() {
            store[0].take();
            cpuAtStart = cpuByThread();
            processAtStart = PROCESS.getProcessCpuTime();
            compileMillisAtStart = compileMillis();
            gcMillisAtStart = gcMillis();
            ioAtStart = writeCalls();
        }

        /**
         * The process's write system calls and the bytes passed to them so far ({@code syscw} and
         * {@code wchar} of {@code /proc/self/io}: every {@code write}, {@code pwrite} and
         * {@code writev}, whatever reaches the disk), or null where there is no such file.
         */
        private static long[] writeCalls() {
            Path io = Path.of("/proc/self/io");
            if (!Files.isReadable(io)) {
                return null;
            }
            try {
                long[] out = new long[2];
                for (String line : Files.readAllLines(io)) {
                    String[] kv = line.split(":\\s*");
                    if (kv[0].equals("syscw")) {
                        out[0] = Long.parseLong(kv[1].trim());
                    } else if (kv[0].equals("wchar")) {
                        out[1] = Long.parseLong(kv[1].trim());
                    }
                }
                return out;
            } catch (java.io.IOException | RuntimeException e) {
                return null;
            }
        }

        private static long compileMillis() {
            CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
        }

        private static long gcMillis() {
            long sum = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                sum += Math.max(0, gc.getCollectionTime());
            }
            return sum;
        }

        @Override
        public void delivered() {
            processNanos = PROCESS.getProcessCpuTime() - processAtStart;
            compileMillis = compileMillis() - compileMillisAtStart;
            gcMillis = gcMillis() - gcMillisAtStart;
            long[] ioNow = writeCalls();
            io = ioNow == null || ioAtStart == null ? null : new long[] {ioNow[0] - ioAtStart[0], ioNow[1] - ioAtStart[1]};
            commits = store[0].take();
            long[] ids = THREADS.getAllThreadIds();
            ThreadInfo[] infos = THREADS.getThreadInfo(ids);
            for (int i = 0; i < ids.length; i++) {
                long cpu = THREADS.getThreadCpuTime(ids[i]);
                if (infos[i] == null || cpu < 0) {
                    continue;
                }
                long used = cpu - cpuAtStart.getOrDefault(ids[i], 0L);
                cpuNanos.merge(threadKind(infos[i].getThreadName()), used, Long::sum);
            }
        }

        private static Map<Long, Long> cpuByThread() {
            Map<Long, Long> out = new HashMap<>();
            for (long id : THREADS.getAllThreadIds()) {
                long cpu = THREADS.getThreadCpuTime(id);
                if (cpu >= 0) {
                    out.put(id, cpu);
                }
            }
            return out;
        }

        void print(int deliveries) {
            System.out.println("| thread | CPU s | commits (synced) | s in commit | ms a commit | ops a commit |");
            System.out.println("|---|---:|---:|---:|---:|---:|");
            TreeSet<String> names = new TreeSet<>(commits.keySet());
            cpuNanos.forEach((name, nanos) -> {
                if (nanos >= 5_000_000 || commits.containsKey(name)) {
                    names.add(name);
                }
            });
            for (String name : names) {
                long cpu = cpuNanos.getOrDefault(name, 0L);
                CommitTimes.Tally t = commits.get(name);
                if (t == null) {
                    System.out.printf(Locale.ROOT, "| %s | %.2f | | | | |%n", name, cpu / 1e9);
                } else {
                    System.out.printf(Locale.ROOT, "| %s | %.2f | %,d (%,d) | %.2f | %.2f | %.0f |%n", name, cpu / 1e9,
                            t.commits(), t.synced(), t.nanos() / 1e9, t.nanos() / 1e6 / t.commits(),
                            (double) t.ops() / t.commits());
                }
            }
            long javaThreads = cpuNanos.values().stream().mapToLong(Long::longValue).sum();
            System.out.printf(Locale.ROOT, "| the rest of the process (JIT, GC, the store's own threads) | %.2f | | | | |%n",
                    Math.max(0, processNanos - javaThreads) / 1e9);
            System.out.printf(Locale.ROOT, "%nOf the rest: the JIT compilers worked %.2f s (wall time, summed over its threads), "
                    + "GC %.2f s (collection time).%n", compileMillis / 1e3, gcMillis / 1e3);
            if (io != null) {
                System.out.printf(Locale.ROOT, "Write system calls: %,d (%.2f a delivery), %.1f MiB passed to them (%,.0f B a "
                        + "delivery).%n", io[0], (double) io[0] / deliveries, io[1] / 1048576.0, (double) io[1] / deliveries);
            }
        }
    }
}
