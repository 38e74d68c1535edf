package io.ankusa.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * <p>It keeps what each bench printed in {@code <ankusa.bench.dir>/<Bench>.out}, the bench's tables
 * in {@code <Bench>.tsv} ({@link BenchTables}) and the run's verdicts and options in
 * {@code suite.tsv}; with {@code ankusa.bench.writeDocs=true} it then writes
 * {@code ankusa.bench.docsFile} and copies the outputs into {@code ankusa.bench.resultsDir}
 * ({@link PerformancePage}).
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.only=TickBench,ThroughputBench
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.only=PostgresOutboxBench
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.writeDocs=true
 * </pre>
 *
 * <p>System properties: {@code ankusa.bench.only} (comma-separated simple class names; default all),
 * {@code ankusa.bench.skipMigration=true} (leave out the migration bench), {@code ankusa.bench.dir}
 * (default {@code target/bench}), {@code ankusa.bench.writeDocs}, {@code ankusa.bench.docsFile}
 * (default {@code ../docs/performance.md}), {@code ankusa.bench.resultsDir} (default {@code results});
 * the rest go to the benches.
 */
public final class BenchSuite {

    /** Every bench, in the order it runs: the quick store-level ones first. */
    static final List<String> BENCHES = List.of(
            "io.ankusa.bench.StoreBench",
            "io.ankusa.bench.IngestBench",
            "io.ankusa.bench.FanOutBench",
            "io.ankusa.bench.DiskBench",
            "io.ankusa.queue.intake.AdmissionCostBench",
            "io.ankusa.bench.PipelineBench",
            "io.ankusa.bench.ThroughputBench",
            "io.ankusa.bench.outbox.PostgresOutboxBench",
            "io.ankusa.bench.outbox.RelayBench",
            "io.ankusa.bench.TickBench",
            "io.ankusa.bench.FairnessBench",
            "io.ankusa.tests.upgrade.MigrationBench",
            "io.ankusa.tests.kafka.KafkaIntakeBench",
            "io.ankusa.bench.operator.OperatorBench",
            "io.ankusa.bench.operator.AdminBench");

    /**
     * JVM options of a bench's child beyond the defaults. The migration bench fixes and touches its
     * heap up front: a heap growing while the migration runs cost the migrating thread page faults
     * (docs/testing.md, "The migration bench").
     */
    static final Map<String, List<String>> JVM_OPTIONS = Map.of(
            "io.ankusa.tests.upgrade.MigrationBench", List.of("-Xms2g", "-XX:+AlwaysPreTouch"));

    /**
     * Programs that run only when {@code ankusa.bench.only} names them: profiles, and benches not in
     * the full suite (a write that ran one shows it on the performance page after the suite's benches).
     */
    static final List<String> ON_REQUEST =
            List.of("io.ankusa.bench.outbox.DrainProfile", "io.ankusa.bench.OrderingBench",
                    "io.ankusa.bench.TracingBench");

    /** The properties that tell this suite where its files go, left out of the page's options. */
    private static final Set<String> PLUMBING = Set.of("ankusa.bench.dir", "ankusa.bench.writeDocs",
            "ankusa.bench.docsFile", "ankusa.bench.resultsDir");

    private BenchSuite() {
    }

    /** Returns every bench's simple class name, in the order they run. */
    static List<String> names() {
        return BENCHES.stream().map(BenchSuite::simpleName).toList();
    }

    private static String simpleName(String mainClass) {
        return mainClass.substring(mainClass.lastIndexOf('.') + 1);
    }

    /** Runs the benches; see the class comment. */
    public static void main(String[] args) throws IOException, InterruptedException {
        adoptCommandLine(System.getenv("MAVEN_CMD_LINE_ARGS"));
        Set<String> only = Arrays.stream(System.getProperty("ankusa.bench.only", "").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
        boolean skipMigration = Boolean.getBoolean("ankusa.bench.skipMigration");
        Path dir = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir", "target/bench")));
        Map<String, String> options = new LinkedHashMap<>();
        System.getProperties().stringPropertyNames().stream().filter(p -> p.startsWith("ankusa."))
                .filter(p -> !PLUMBING.contains(p)).sorted().forEach(p -> options.put(p, System.getProperty(p)));
        Path docsFile = Path.of(System.getProperty("ankusa.bench.docsFile", "../docs/performance.md"));
        String commit = PerformancePage.commit(PerformancePage.directory(docsFile));
        List<PerformancePage.Run> runs = new ArrayList<>();
        List<String> programs = new ArrayList<>(BENCHES);
        ON_REQUEST.stream().filter(p -> only.contains(simpleName(p))).forEach(programs::add);
        for (String bench : programs) {
            String name = simpleName(bench);
            if ((!only.isEmpty() && !only.contains(name)) || (skipMigration && name.equals("MigrationBench"))) {
                continue;
            }
            System.out.printf(Locale.ROOT, "%n=== %s ===%n", name);
            System.out.flush();
            long start = System.nanoTime();
            Path out = dir.resolve(name + ".out");
            int exit = run(bench, out);
            List<String> printed = new String(Files.readAllBytes(out), StandardCharsets.UTF_8).lines().toList();
            BenchTables.writeTsv(BenchTables.parse(printed), dir.resolve(name + ".tsv"));
            runs.add(new PerformancePage.Run(name, exit, (System.nanoTime() - start) / 1e9));
            new PerformancePage.Suite(commit, runs, options).write(dir.resolve(PerformancePage.SUITE_FILE));
        }
        new PerformancePage.Suite(commit, runs, options).write(dir.resolve(PerformancePage.SUITE_FILE));
        System.out.printf(Locale.ROOT, "%n=== Bench summary ===%n%n| bench | verdict |%n|---|---|%n");
        runs.forEach(run -> System.out.printf(Locale.ROOT, "| %s | %s |%n", run.bench(), run.verdict()));
        if (Boolean.getBoolean("ankusa.bench.writeDocs")) {
            Path page = PerformancePage.write(dir, docsFile,
                    Path.of(System.getProperty("ankusa.bench.resultsDir", "results")), names());
            System.out.printf(Locale.ROOT, "%nWrote %s%n", page);
        }
        if (runs.stream().anyMatch(run -> run.exit() != 0)) {
            System.exit(1);
        }
    }

    /**
     * Takes the {@code -Dankusa.*} options of the Maven command line that the profile does not pass
     * on by name (a bench's own options, such as {@code ankusa.bench.profileTenants}): Maven's
     * launcher exports its arguments as {@code MAVEN_CMD_LINE_ARGS}, and this JVM inherits them. An
     * option the profile passed keeps the profile's value. Values holding spaces are not supported.
     *
     * @param commandLine the Maven command line's arguments, or null when not run by Maven
     */
    static void adoptCommandLine(String commandLine) {
        if (commandLine == null) {
            return;
        }
        for (String token : commandLine.trim().split("\\s+")) {
            int eq = token.indexOf('=');
            if (token.startsWith("-Dankusa.") && eq > 2) {
                String key = token.substring(2, eq);
                if (System.getProperty(key) == null) {
                    System.setProperty(key, token.substring(eq + 1));
                }
            }
        }
    }

    /**
     * Runs one bench in a child JVM; what it prints goes to this process's output and, byte for
     * byte, to {@code out}.
     */
    private static int run(String mainClass, Path out) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS.getOrDefault(mainClass, List.of()));
        System.getProperties().stringPropertyNames().stream().filter(p -> p.startsWith("ankusa.")).sorted()
                .forEach(p -> command.add("-D" + p + "=" + System.getProperty(p)));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        Process child = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        byte[] buffer = new byte[8192];
        try (InputStream in = child.getInputStream(); OutputStream file = Files.newOutputStream(out)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                System.out.write(buffer, 0, n);
                System.out.flush();
                file.write(buffer, 0, n);
            }
        }
        return child.waitFor();
    }
}
