package io.ankusa.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Runs every bench of the {@code bench} profile, each in a JVM of its own on this class path (so
 * one bench's heap, JIT and store files do not colour the next), one after another, with every
 * {@code ankusa.*} system property passed on. Each bench prints its own table and rule verdicts;
 * this prints a summary and exits non-zero if any bench failed — after running all of them.
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.only=TickBench,ThroughputBench
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.only=PostgresOutboxBench
 * </pre>
 *
 * <p>System properties: {@code ankusa.bench.only} (comma-separated simple class names; default all),
 * {@code ankusa.bench.skipMigration=true} (leave out the migration bench); the rest go to the benches.
 */
public final class BenchSuite {

    /** Every bench, in the order it runs: the quick store-level ones first. */
    static final List<String> BENCHES = List.of(
            "io.ankusa.bench.StoreBench",
            "io.ankusa.bench.IngestBench",
            "io.ankusa.queue.intake.AdmissionCostBench",
            "io.ankusa.bench.PipelineBench",
            "io.ankusa.bench.ThroughputBench",
            "io.ankusa.bench.outbox.PostgresOutboxBench",
            "io.ankusa.bench.TickBench",
            "io.ankusa.bench.FairnessBench",
            "io.ankusa.tests.upgrade.MigrationBench",
            "io.ankusa.tests.kafka.KafkaIntakeBench",
            "io.ankusa.bench.operator.OperatorBench");

    /**
     * JVM options of a bench's child beyond the defaults. The migration bench fixes and touches its
     * heap up front: a heap growing while the migration runs cost the migrating thread page faults
     * (docs/testing.md, "The migration bench").
     */
    static final Map<String, List<String>> JVM_OPTIONS = Map.of(
            "io.ankusa.tests.upgrade.MigrationBench", List.of("-Xms2g", "-XX:+AlwaysPreTouch"));

    private BenchSuite() {
    }

    /** Runs the benches; see the class comment. */
    public static void main(String[] args) throws IOException, InterruptedException {
        Set<String> only = Arrays.stream(System.getProperty("ankusa.bench.only", "").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
        boolean skipMigration = Boolean.getBoolean("ankusa.bench.skipMigration");
        Map<String, String> verdicts = new LinkedHashMap<>();
        for (String bench : BENCHES) {
            String name = bench.substring(bench.lastIndexOf('.') + 1);
            if ((!only.isEmpty() && !only.contains(name)) || (skipMigration && name.equals("MigrationBench"))) {
                continue;
            }
            System.out.printf(Locale.ROOT, "%n=== %s ===%n", name);
            long start = System.nanoTime();
            int exit = run(bench);
            verdicts.put(name, String.format(Locale.ROOT, "%s (%.0f s)", exit == 0 ? "pass" : "FAIL, exit " + exit,
                    (System.nanoTime() - start) / 1e9));
        }
        System.out.printf(Locale.ROOT, "%n=== Bench summary ===%n%n| bench | verdict |%n|---|---|%n");
        verdicts.forEach((name, verdict) -> System.out.printf(Locale.ROOT, "| %s | %s |%n", name, verdict));
        if (verdicts.values().stream().anyMatch(v -> v.startsWith("FAIL"))) {
            System.exit(1);
        }
    }

    private static int run(String mainClass) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS.getOrDefault(mainClass, List.of()));
        System.getProperties().stringPropertyNames().stream().filter(p -> p.startsWith("ankusa.")).sorted()
                .forEach(p -> command.add("-D" + p + "=" + System.getProperty(p)));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        return new ProcessBuilder(command).inheritIO().start().waitFor();
    }
}
