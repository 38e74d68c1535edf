package io.ankusa.bench.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs {@link SoakRun} on each backend at once, each in a child JVM of its own with a fixed,
 * pre-touched 256 MiB heap (so its resident-set growth is native growth), passes the
 * {@code ankusa.soak.*} system properties on, writes each child's output to
 * {@code <ankusa.soak.dir>/soak-<backend>.out}, then prints every report and exits non-zero if any
 * child failed.
 *
 * <pre>
 * ./mvnw -B -o verify -pl ankusa-bench -am -DskipTests -Dankusa.soak.run
 * </pre>
 *
 * System properties: {@code ankusa.soak.backends} (comma-separated, default {@code rocksdb,lmdb}),
 * {@code ankusa.soak.mallocArenaMax} (glibc's {@code MALLOC_ARENA_MAX} in each child's
 * environment; empty leaves glibc's default of 8 arenas per core) and those of {@link SoakRun}.
 */
public final class SoakSuite {

    private SoakSuite() {
    }

    /** Runs the soak; see the class comment. */
    public static void main(String[] args) throws IOException, InterruptedException {
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.soak.dir",
                System.getProperty("java.io.tmpdir"))));
        String backends = System.getProperty("ankusa.soak.backends", "rocksdb,lmdb");
        Map<String, Process> children = new LinkedHashMap<>();
        for (String backend : backends.split(",")) {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch", "-XX:NativeMemoryTracking=summary"));
            System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("ankusa.soak."))
                    .forEach(k -> command.add("-D" + k + "=" + System.getProperty(k)));
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), SoakRun.class.getName(), backend));
            ProcessBuilder builder = new ProcessBuilder(command);
            String arenas = System.getProperty("ankusa.soak.mallocArenaMax", "");
            if (!arenas.isEmpty()) {
                builder.environment().put("MALLOC_ARENA_MAX", arenas);
            }
            Process child = builder
                    .redirectOutput(root.resolve("soak-" + backend + ".out").toFile())
                    .redirectError(root.resolve("soak-" + backend + ".err").toFile())
                    .start();
            children.put(backend, child);
            System.out.println("soak: " + backend + " started, output in " + root.resolve("soak-" + backend + ".out"));
        }
        List<String> failed = new ArrayList<>();
        for (Map.Entry<String, Process> child : children.entrySet()) {
            int exit = child.getValue().waitFor();
            String out = Files.readString(root.resolve("soak-" + child.getKey() + ".out"), StandardCharsets.UTF_8);
            int mark = out.indexOf(SoakRun.REPORT_MARK);
            System.out.println();
            System.out.println(mark < 0 ? "(no report from " + child.getKey() + ")" : out.substring(mark));
            if (exit != 0) {
                failed.add(child.getKey() + " (exit " + exit + ", stderr in "
                        + root.resolve("soak-" + child.getKey() + ".err") + ")");
            }
        }
        if (!failed.isEmpty()) {
            System.out.println("FAIL soak: " + failed);
            System.exit(1);
        }
    }
}
