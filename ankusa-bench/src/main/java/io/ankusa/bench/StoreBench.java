package io.ankusa.bench;

import io.ankusa.store.Stores;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The store bench: runs {@link BackendBench} on each backend, prints a Markdown table, and exits
 * non-zero when a rule fails. Run it with {@code ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests}
 * (see {@code docs/testing.md}).
 *
 * <p>Rules: every read returns what was written (also after a reopen), and no figure falls below
 * a floor far under what this class of machine does — they catch a backend that fsyncs per op or
 * scans linearly, not a slow afternoon. System properties: {@code ankusa.bench.backends}
 * (comma-separated; default every registered backend), {@code ankusa.bench.rounds} (default 5),
 * {@code ankusa.bench.dir} (where the stores go; default the temporary directory).
 */
public final class StoreBench {

    static final double MIN_SYNC_COMMITS_PER_SECOND = 20;
    static final double MIN_ASYNC_COMMITS_PER_SECOND = 100;
    static final double MAX_MULTIGET_P99_MICROS = 20_000;
    static final double MAX_SCAN_P50_MICROS = 200_000;

    private StoreBench() {
    }

    /** Runs the bench; see the class comment for the properties. */
    public static void main(String[] args) throws IOException {
        List<String> backends = backends();
        int rounds = Integer.getInteger("ankusa.bench.rounds", 5);
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        List<String> failures = new ArrayList<>();
        List<BackendBench.Result> results = new ArrayList<>();
        for (String backend : backends) {
            Path dir = Files.createTempDirectory(root, "bench-" + backend + "-");
            try {
                BackendBench.Result result = new BackendBench(backend, dir, rounds, failures::add).run();
                results.add(result);
                check(result, failures);
            } finally {
                delete(dir);
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Store bench: %d rounds (median), batches of %d puts + %d merges, "
                + "%d SYNC / %d ASYNC commits a round, Java %s%n%n", rounds, BackendBench.OPS_PER_KIND,
                BackendBench.OPS_PER_KIND, BackendBench.SYNC_COMMITS, BackendBench.ASYNC_COMMITS,
                System.getProperty("java.version"));
        System.out.println(table(results));
        if (!failures.isEmpty()) {
            failures.forEach(f -> System.out.println("FAILED: " + f));
            System.exit(1);
        }
        System.out.println("All bench rules hold.");
    }

    static String table(List<BackendBench.Result> results) {
        StringBuilder out = new StringBuilder()
                .append("| backend | SYNC commits/s | SYNC ops/s | ASYNC commits/s | ASYNC ops/s "
                        + "| multiGet 6 counters p50 µs | p99 µs | scan 1 000 keys µs |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (BackendBench.Result r : results) {
            out.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f | %,.0f | %,.0f | %.1f | %.1f | %,.0f |%n",
                    r.backend(), r.syncCommitsPerSecond(), r.syncOpsPerSecond(), r.asyncCommitsPerSecond(),
                    r.asyncOpsPerSecond(), r.multiGetP50Micros(), r.multiGetP99Micros(), r.scanP50Micros()));
        }
        return out.toString();
    }

    private static void check(BackendBench.Result r, List<String> failures) {
        if (r.syncCommitsPerSecond() < MIN_SYNC_COMMITS_PER_SECOND) {
            failures.add(r.backend() + ": SYNC commits/s below " + MIN_SYNC_COMMITS_PER_SECOND);
        }
        if (r.asyncCommitsPerSecond() < MIN_ASYNC_COMMITS_PER_SECOND) {
            failures.add(r.backend() + ": ASYNC commits/s below " + MIN_ASYNC_COMMITS_PER_SECOND);
        }
        if (r.multiGetP99Micros() > MAX_MULTIGET_P99_MICROS) {
            failures.add(r.backend() + ": multiGet p99 above " + MAX_MULTIGET_P99_MICROS + " µs");
        }
        if (r.scanP50Micros() > MAX_SCAN_P50_MICROS) {
            failures.add(r.backend() + ": 1 000-key scan above " + MAX_SCAN_P50_MICROS + " µs");
        }
    }

    private static List<String> backends() {
        String chosen = System.getProperty("ankusa.bench.backends", "").trim();
        List<String> present = Stores.providers().stream().map(StoreProvider::name).toList();
        if (chosen.isEmpty()) {
            return present;
        }
        List<String> wanted = Arrays.stream(chosen.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        for (String name : wanted) {
            if (!present.contains(name)) {
                throw new IllegalArgumentException("no store backend named '" + name + "'; present: " + present);
            }
        }
        return wanted;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
