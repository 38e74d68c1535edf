package io.ankusa.bench.outbox;

import io.ankusa.store.Stores;
import io.ankusa.tests.postgres.PostgresCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;

/**
 * The PostgreSQL outbox bench: Ankusa against the outbox a team would write on
 * PostgreSQL ({@link PostgresOutbox}), on the same machine, in one run, every acknowledgement
 * after a durable commit on both sides.
 *
 * <ul>
 * <li><b>Synced ingest</b>: {@code ankusa.bench.pgHooks} hooks (default 100 000) of 256 random
 *     bytes, one sink, over 1 000 Zipf-skewed tenants, after 10 000 untimed ones: Ankusa with
 *     {@value #PRODUCERS} producers (up to 8 192 in flight) against PostgreSQL with 2 and with 4
 *     writer connections (batches of 256, one transaction each).</li>
 * <li><b>Drain</b> with a no-op sink: a backlog of as many hooks over 1 and over 10 000
 *     Zipf-skewed tenants, loaded untimed, then delivered until none is left: Ankusa's
 *     {@code Pipeline} with {@code concurrency} 1 024 and 256 (its other settings default), against
 *     {@value #WORKERS} PostgreSQL workers claiming 256 and 64 rows each ({@code SKIP LOCKED}).</li>
 * </ul>
 *
 * <p>Rounds are interleaved (Ankusa, PostgreSQL, Ankusa, … within each round), {@code
 * ankusa.bench.pgRounds} of them (default 3) after one unreported warm-up round of a fifth of the
 * hooks; each cell is the median of its rounds, and the table gives Ankusa / PostgreSQL per
 * backend. The goals (Ankusa at least {@value #GOAL}× PostgreSQL) are printed as rules with PASS or
 * FAIL and are reported, not enforced: the exit code is non-zero only when an answer is wrong (a
 * hook refused, lost, delivered twice, or a counter not back to 0).
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.only=PostgresOutboxBench
 * </pre>
 *
 * <p>System properties: {@code ankusa.bench.pgHooks}, {@code ankusa.bench.pgRounds},
 * {@code ankusa.bench.pgPhases} ({@code ingest,drain}, the default, or one of them),
 * {@code ankusa.bench.backends} (default {@code rocksdb,lmdb}), {@code ankusa.pgBin}
 * (PostgreSQL's {@code bin} directory), {@code ankusa.bench.dir}.
 */
public final class PostgresOutboxBench {

    static final double GOAL = 1.5;
    static final int PRODUCERS = 4;
    static final int WORKERS = 4;
    static final int INGEST_TENANTS = 1_000;
    static final int WARM_UP = 10_000;

    private PostgresOutboxBench() {
    }

    /** Runs the bench; see the class comment. */
    public static void main(String[] args) throws Exception {
        int hooks = Integer.getInteger("ankusa.bench.pgHooks", 100_000);
        int rounds = Integer.getInteger("ankusa.bench.pgRounds", 3);
        String only = System.getProperty("ankusa.bench.backends", "");
        List<String> phases = Arrays.asList(System.getProperty("ankusa.bench.pgPhases", "ingest,drain").split(","));
        List<String> backends = Stream.of("rocksdb", "lmdb").filter(b -> Stores.provider(b).isPresent())
                .filter(b -> only.isBlank() || Arrays.asList(only.split(",")).contains(b)).toList();
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        List<String> failures = new ArrayList<>();
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        String version;
        try (PostgresCluster cluster = PostgresCluster.start("shared_buffers=256MB", "max_wal_size=4GB")) {
            version = cluster.version();
            Rounds run = new Rounds(new AnkusaCells(root), new PostgresOutbox(cluster), backends, phases, failures);
            run.round(Math.max(1_000, hooks / 5), new LinkedHashMap<>(), "warm-up");
            for (int r = 1; r <= rounds; r++) {
                run.round(hooks, rates, "round " + r);
            }
        }
        Report report = new Report(backends, rates);
        System.out.println();
        System.out.printf(Locale.ROOT, "PostgreSQL outbox bench: %,d hooks of %d B, 1 sink, medians of %d interleaved "
                + "rounds; PostgreSQL %s on 127.0.0.1 (fsync=on, synchronous_commit=on); Java %s%n%n", hooks,
                Workload.PAYLOAD, rounds, version, System.getProperty("java.version"));
        report.print();
        List<String> verdicts = report.rules(GOAL);
        System.out.println();
        verdicts.forEach(System.out::println);
        System.out.println();
        System.out.println("The rules are reported, not enforced (docs/testing.md).");
        if (!failures.isEmpty()) {
            System.out.println();
            failures.forEach(f -> System.out.println("FAIL " + f));
            System.exit(1);
        }
    }

    /** One round: every cell once, Ankusa and PostgreSQL alternating. */
    private record Rounds(AnkusaCells ankusa, PostgresOutbox postgres, List<String> backends, List<String> phases,
            List<String> failures) {

        void round(int hooks, Map<String, List<Double>> rates, String name) throws Exception {
            if (phases.contains("ingest")) {
                Workload ingestWork = Workload.zipf(WARM_UP + hooks, INGEST_TENANTS, 14);
                int pg = 2;
                for (String backend : backends) {
                    record(rates, name, Cells.ingest(backend), hooks / ankusaIngest(backend, ingestWork, hooks));
                    record(rates, name, Cells.ingestPostgres(pg), hooks / postgresIngest(ingestWork, hooks, pg));
                    pg = pg == 2 ? 4 : 2;
                }
                if (backends.size() < 2) {
                    record(rates, name, Cells.ingestPostgres(4), hooks / postgresIngest(ingestWork, hooks, 4));
                }
            }
            for (int tenants : phases.contains("drain") ? new int[] {1, 10_000} : new int[0]) {
                Workload drainWork = Workload.zipf(hooks, tenants, 15);
                for (int inFlight : new int[] {1_024, 256}) {
                    for (int i = 0; i < backends.size(); i++) {
                        String backend = backends.get(i);
                        record(rates, name, Cells.drain(backend, tenants, inFlight),
                                hooks / ankusaDrain(backend, drainWork, inFlight));
                        if (i == 0) {
                            record(rates, name, Cells.drainPostgres(tenants, inFlight),
                                    hooks / postgresDrain(drainWork, inFlight));
                        }
                    }
                }
            }
        }

        private static void record(Map<String, List<Double>> rates, String round, String cell, double rate) {
            rates.computeIfAbsent(cell, c -> new ArrayList<>()).add(rate);
            System.out.printf(Locale.ROOT, "%s: %s: %,.0f /s%n", round, cell, rate);
        }

        private double ankusaIngest(String backend, Workload work, int hooks) throws Exception {
            AnkusaCells.Ingested result = ankusa.ingest(backend, work, WARM_UP, PRODUCERS);
            if (result.refused() != 0 || result.pending() != WARM_UP + hooks) {
                failures.add("Ankusa " + backend + " ingest: " + result.refused() + " refused, " + result.pending()
                        + " pending of " + (WARM_UP + hooks));
            }
            return result.seconds();
        }

        private double postgresIngest(Workload work, int hooks, int writers) throws Exception {
            postgres.reset();
            postgres.ingest(work, 0, WARM_UP, writers);
            double seconds = postgres.ingest(work, WARM_UP, WARM_UP + hooks, writers);
            long stored = postgres.hooks();
            if (stored != WARM_UP + hooks || postgres.deliveriesLeft() != stored) {
                failures.add("PostgreSQL ingest with " + writers + " writers: " + stored + " hooks of " + (WARM_UP + hooks));
            }
            return seconds;
        }

        private double ankusaDrain(String backend, Workload work, int inFlight) throws Exception {
            AtomicIntegerArray seen = new AtomicIntegerArray(work.count());
            AnkusaCells.Drained result = ankusa.drain(backend, work, inFlight, seen);
            check("Ankusa " + backend + " drain, " + work.tenants() + " tenants, <= " + inFlight, seen);
            if (result.calls() != work.count() || !result.countersZero()) {
                failures.add("Ankusa " + backend + " drain: " + result.calls() + " sink calls for " + work.count()
                        + " hooks, counters zero: " + result.countersZero());
            }
            return result.seconds();
        }

        private double postgresDrain(Workload work, int inFlight) throws Exception {
            postgres.reset();
            postgres.ingest(work, 0, work.count(), 2);
            postgres.vacuumAnalyze();
            AtomicIntegerArray seen = new AtomicIntegerArray(work.count());
            double seconds = postgres.drain(WORKERS, inFlight / WORKERS, seen);
            check("PostgreSQL drain, " + work.tenants() + " tenants, <= " + inFlight, seen);
            long left = postgres.deliveriesLeft();
            if (left != 0) {
                failures.add("PostgreSQL drain: " + left + " deliveries left");
            }
            return seconds;
        }

        private void check(String cell, AtomicIntegerArray seen) {
            int missing = 0;
            int twice = 0;
            for (int i = 0; i < seen.length(); i++) {
                missing += seen.get(i) == 0 ? 1 : 0;
                twice += seen.get(i) > 1 ? 1 : 0;
            }
            if (missing + twice > 0) {
                failures.add(cell + ": " + missing + " hooks never delivered, " + twice + " delivered more than once");
            }
        }
    }
}
