package io.ankusa.bench;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Writes {@code docs/performance.md}, the one page of the current performance figures, from the
 * output {@link BenchSuite} keeps of its last run ({@code suite.tsv}, and per bench
 * {@code <Bench>.out} and {@code <Bench>.tsv}, see {@link BenchTables}): a header that says the page
 * is generated and by which command, the date (UTC), the commit the run measured, the machine and
 * the run's options, a verdict per bench, then each bench's tables as it printed them, one row per
 * backend and cell, and a failed bench's {@code FAIL} lines. A
 * bench the run left out says so ("not run in the last write"). Each bench's raw output is copied
 * into the results archive as {@code <date>-<Bench>.txt}, never overwritten, and the page links it.
 *
 * <p>{@link BenchSuite} calls this after the benches when {@code ankusa.bench.writeDocs=true}:
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.writeDocs=true
 * </pre>
 *
 * <p>Run alone, it writes the page again from an earlier run's output: system properties
 * {@code ankusa.bench.dir} (default {@code ankusa-bench/target/bench}), {@code ankusa.bench.docsFile}
 * (default {@code docs/performance.md}), {@code ankusa.bench.resultsDir} (default
 * {@code ankusa-bench/results}).
 */
public final class PerformancePage {

    /** The command that writes the page, as the page shows it. */
    static final String COMMAND =
            "./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.writeDocs=true";

    /** What a bench the last run left out shows. */
    static final String NOT_RUN = "not run in the last write";

    /** The run's summary file in the bench directory. */
    static final String SUITE_FILE = "suite.tsv";

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private PerformancePage() {
    }

    /**
     * One bench of the run.
     *
     * @param bench the bench's simple class name
     * @param exit its exit code
     * @param seconds how long it ran
     */
    record Run(String bench, int exit, double seconds) {

        String verdict() {
            return String.format(Locale.ROOT, "%s (%.0f s)", exit == 0 ? "pass" : "FAIL, exit " + exit, seconds);
        }
    }

    /**
     * What the page says of the machine.
     *
     * @param cores the processors the JVM sees
     * @param memoryBytes the physical memory, or 0 when unknown
     * @param os the operating system's name, version and architecture
     * @param java the Java runtime's version and VM
     * @param loadAverage the system's load average over the last minute when the page is written, or
     *     negative when unknown (the benches share the machine with whatever else runs on it)
     */
    record Machine(int cores, long memoryBytes, String os, String java, double loadAverage) {

        /** Returns this JVM's machine. */
        static Machine current() {
            long memory = 0;
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                memory = os.getTotalMemorySize();
            }
            return new Machine(Runtime.getRuntime().availableProcessors(), memory,
                    System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                            + System.getProperty("os.arch"),
                    System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ", "
                            + System.getProperty("java.vendor") + ")",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }

        String describe() {
            String memory = memoryBytes > 0
                    ? String.format(Locale.ROOT, "%.1f GiB memory", memoryBytes / (double) (1L << 30))
                    : "memory unknown";
            String load = loadAverage >= 0
                    ? String.format(Locale.ROOT, "; load average %.1f when written", loadAverage) : "";
            return String.format(Locale.ROOT, "%d cores, %s, %s, Java %s%s", cores, memory, os, java, load);
        }
    }

    /**
     * The summary of a run as {@link BenchSuite} writes it, tab-separated: one line {@code commit
     * <commit>}, one line {@code option <name> <value>} per option and one line {@code bench <name>
     * <exit> <seconds>} per bench run.
     *
     * @param commit the checkout's commit when the run started (see {@link #commit(Path)})
     * @param runs the benches run, in order
     * @param options the run's {@code ankusa.*} options
     */
    record Suite(String commit, List<Run> runs, Map<String, String> options) {

        Suite {
            runs = List.copyOf(runs);
            options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        }

        static Suite read(Path file) throws IOException {
            String commit = "unknown";
            List<Run> runs = new ArrayList<>();
            Map<String, String> options = new LinkedHashMap<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] cells = line.split("\t", -1);
                if (cells.length == 4 && cells[0].equals("bench")) {
                    runs.add(new Run(cells[1], Integer.parseInt(cells[2]), Double.parseDouble(cells[3])));
                } else if (cells.length == 3 && cells[0].equals("option")) {
                    options.put(cells[1], cells[2]);
                } else if (cells.length == 2 && cells[0].equals("commit")) {
                    commit = cells[1];
                }
            }
            return new Suite(commit, runs, options);
        }

        void write(Path file) throws IOException {
            List<String> lines = new ArrayList<>();
            lines.add("commit\t" + commit);
            options.forEach((name, value) -> lines.add("option\t" + name + "\t" + value));
            runs.forEach(run -> lines.add(String.format(Locale.ROOT, "bench\t%s\t%d\t%.1f", run.bench(), run.exit(),
                    run.seconds())));
            Files.write(file, lines, StandardCharsets.UTF_8);
        }
    }

    /** Writes the page again from an earlier run's output; see the class comment. */
    public static void main(String[] args) throws IOException {
        Path page = write(Path.of(System.getProperty("ankusa.bench.dir", "ankusa-bench/target/bench")),
                Path.of(System.getProperty("ankusa.bench.docsFile", "docs/performance.md")),
                Path.of(System.getProperty("ankusa.bench.resultsDir", "ankusa-bench/results")),
                BenchSuite.names());
        System.out.println("Wrote " + page);
    }

    /**
     * Copies each bench's output of the run in {@code benchDir} into {@code resultsDir} and writes
     * the page, stamped now, with the run's commit and this JVM's machine.
     *
     * @param benchDir where the run left {@code suite.tsv} and the benches' files
     * @param docsFile the page to write
     * @param resultsDir the dated results archive
     * @param benches every bench, in the order the page lists them
     * @return the page written
     * @throws IOException when a file cannot be read or written
     */
    public static Path write(Path benchDir, Path docsFile, Path resultsDir, List<String> benches) throws IOException {
        return write(benchDir, docsFile, resultsDir, benches, Instant.now(), Machine.current());
    }

    static Path write(Path benchDir, Path docsFile, Path resultsDir, List<String> benches, Instant now,
            Machine machine) throws IOException {
        Suite suite = Suite.read(benchDir.resolve(SUITE_FILE));
        Files.createDirectories(resultsDir);
        Path docsDir = directory(docsFile);
        Map<String, List<BenchTables.Table>> tables = new LinkedHashMap<>();
        Map<String, String> raw = new LinkedHashMap<>();
        Map<String, List<String>> failed = new LinkedHashMap<>();
        for (Run run : suite.runs()) {
            Path tsv = benchDir.resolve(run.bench() + ".tsv");
            tables.put(run.bench(), Files.exists(tsv) ? BenchTables.readTsv(tsv) : List.of());
            Path out = benchDir.resolve(run.bench() + ".out");
            if (Files.exists(out)) {
                Path kept = archive(out, resultsDir, DAY.format(now) + "-" + run.bench());
                failed.put(run.bench(), new String(Files.readAllBytes(out), StandardCharsets.UTF_8).lines()
                        .map(String::trim).filter(line -> line.startsWith("FAIL")).toList());
                raw.put(run.bench(), docsDir.relativize(kept.toAbsolutePath()).toString().replace('\\', '/'));
            }
        }
        Files.createDirectories(docsDir);
        Files.writeString(docsFile, page(benches, suite, tables, raw, failed, now, machine), StandardCharsets.UTF_8);
        return docsFile;
    }

    /** The page's Markdown. */
    static String page(List<String> benches, Suite suite, Map<String, List<BenchTables.Table>> tables,
            Map<String, String> raw, Map<String, List<String>> failed, Instant now, Machine machine) {
        Map<String, Run> runs = new LinkedHashMap<>();
        suite.runs().forEach(run -> runs.put(run.bench(), run));
        List<String> order = new ArrayList<>(benches);
        runs.keySet().stream().filter(b -> !order.contains(b)).forEach(order::add);
        StringBuilder out = new StringBuilder();
        out.append("# Performance\n\n")
                .append("<!-- Generated by io.ankusa.bench.PerformancePage from the benches' own output. "
                        + "Do not edit by hand. -->\n\n")
                .append("This page is generated from the benches' own output: do not edit it by hand. "
                        + "The benches write it when run with\n`-Dankusa.bench.writeDocs=true`:\n\n")
                .append("```\n").append(COMMAND).append("\n```\n\n")
                .append("with the options below (`-Dankusa.bench.only=…` runs some of the benches; the others then "
                        + "show \"").append(NOT_RUN).append("\").\nEach bench's raw output is kept, dated, "
                        + "in `ankusa-bench/results/`. What a bench measures and the rules it\nchecks are in its "
                        + "class comment (`ankusa-bench/src/main/java/io/ankusa/bench/`) and in docs/testing.md.\n\n");
        out.append("## The last write\n\n")
                .append("| | |\n|---|---|\n")
                .append("| date (UTC) | ").append(MINUTE.format(now)).append(" |\n")
                .append("| commit | ").append(suite.commit()).append(" |\n")
                .append("| machine | ").append(machine.describe()).append(" |\n")
                .append("| options | ").append(options(suite.options())).append(" |\n")
                .append("| benches run | ").append(runs.isEmpty() ? "none" : String.join(", ", runs.keySet()))
                .append(" |\n\n");
        out.append("| bench | verdict | raw output |\n|---|---|---|\n");
        for (String bench : order) {
            Run run = runs.get(bench);
            String link = raw.containsKey(bench) ? "[" + fileName(raw.get(bench)) + "](" + raw.get(bench) + ")" : "";
            out.append("| ").append(bench).append(" | ").append(run == null ? NOT_RUN : run.verdict()).append(" | ")
                    .append(link).append(" |\n");
        }
        for (String bench : order) {
            out.append("\n## ").append(bench).append("\n\n");
            Run run = runs.get(bench);
            if (run == null) {
                out.append("Not run in the last write.\n");
                continue;
            }
            List<BenchTables.Table> printed = tables.getOrDefault(bench, List.of());
            if (printed.isEmpty()) {
                out.append("No table in its output (").append(run.verdict()).append(").\n");
            }
            boolean first = true;
            for (BenchTables.Table table : printed) {
                if (!first) {
                    out.append('\n');
                }
                first = false;
                if (!table.caption().isEmpty()) {
                    out.append(table.caption()).append("\n\n");
                }
                out.append(table.markdown());
            }
            List<String> failures = run.exit() == 0 ? List.of() : failed.getOrDefault(bench, List.of());
            if (!failures.isEmpty()) {
                out.append("\n").append(run.verdict()).append(":\n\n");
                failures.forEach(line -> out.append("- `").append(line.replace('`', '\'')).append("`\n"));
            }
        }
        return out.toString();
    }

    /** The directory {@code file} is in. */
    static Path directory(Path file) {
        return Objects.requireNonNull(file.toAbsolutePath().getParent(), "no directory above " + file);
    }

    private static String options(Map<String, String> options) {
        List<String> shown = new ArrayList<>();
        options.forEach((name, value) -> {
            if (!value.isEmpty()) {
                shown.add("`-D" + name + "=" + value + "`");
            }
        });
        return shown.isEmpty() ? "none" : String.join(" ", shown);
    }

    private static String fileName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Copies {@code out} to {@code <name>.txt} in {@code dir}, or to {@code <name>-2.txt}, … when taken. */
    private static Path archive(Path out, Path dir, String name) throws IOException {
        byte[] bytes = Files.readAllBytes(out);
        for (int n = 1;; n++) {
            Path kept = dir.resolve(n == 1 ? name + ".txt" : name + "-" + n + ".txt");
            if (!Files.exists(kept)) {
                Files.write(kept, bytes);
                return kept;
            }
            if (Arrays.equals(Files.readAllBytes(kept), bytes)) {
                return kept;
            }
        }
    }

    /** The checkout's short commit, with a note when tracked files differ from it, or {@code unknown}. */
    static String commit(Path dir) {
        String head = git(dir, "rev-parse", "--short", "HEAD");
        if (head == null || head.isEmpty()) {
            return "unknown";
        }
        String changes = git(dir, "status", "--porcelain", "--untracked-files=no");
        return changes == null || changes.isEmpty() ? head : head + " (with local changes)";
    }

    private static String git(Path dir, String... args) {
        List<String> command = new ArrayList<>();
        command.add("git");
        command.addAll(List.of(args));
        try {
            Process git = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            byte[] output;
            try (InputStream in = git.getInputStream()) {
                output = in.readAllBytes();
            }
            if (!git.waitFor(30, TimeUnit.SECONDS) || git.exitValue() != 0) {
                git.destroy();
                return null;
            }
            return new String(output, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
