package io.ankusa.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Runs the {@code ankusa} command in a child JVM the way the {@code ./ankusa} launcher does: the CLI
 * and everything it needs on the module path ({@code java -p … -m io.ankusa.cli/io.ankusa.cli.Ankusa}),
 * only the LMDB binaries jar on the class path (its derived module name {@code native} is a keyword).
 * The paths come from this test JVM's class path, so the child runs exactly what the build produced.
 */
final class CliLauncher {

    /** The CLI's runtime closure: Ankusa's modules and their third-party dependencies. */
    private static final Pattern MODULE_JAR = Pattern.compile(
            "(ankusa-(api|keys|store-spi|store-rocksdb|store-lmdb|queue|dispatch|admin|cli)|picocli|slf4j-api"
                    + "|slf4j-simple|rocksdbjni|lmdbjava|jnr-[a-z0-9]+|jffi|asm(-[a-z]+)?|httpclient5|httpcore5(-h2)?"
                    + "|opentelemetry-(api|context|common)|jetty-[a-z0-9-]+|jakarta\\.servlet-api"
                    + "|jackson-(core|databind|annotations)|jmustache|htmx\\.org|uplot)-[0-9].*\\.jar");
    private static final Pattern MODULE_CLASSES = Pattern.compile(
            ".*[/\\\\]ankusa-(api|keys|store-spi|store-rocksdb|store-lmdb|queue|dispatch|admin|cli)[/\\\\]target"
                    + "[/\\\\]classes");

    private final List<Path> modulePath = new ArrayList<>();
    private final List<Path> classPath = new ArrayList<>();

    CliLauncher() {
        for (Path entry : testRuntimePath()) {
            String name = entry.getFileName().toString();
            if (name.startsWith("native-") && name.endsWith(".jar")) {
                classPath.add(entry);
            } else if (MODULE_JAR.matcher(name).matches() || MODULE_CLASSES.matcher(entry.toString()).matches()) {
                modulePath.add(entry);
            }
        }
        assertThat(modulePath).as("the CLI on the module path").anySatisfy(p -> assertThat(p.toString()).contains("ankusa-cli"));
        assertThat(classPath).as("the LMDB binaries jar").hasSize(1);
    }

    /** What a run printed and how it ended. */
    record Result(int exitCode, String out, String err) {

        /** The lines of stderr. */
        List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\\R"));
        }
    }

    /** Runs {@code ankusa args…}; fails the test if it does not end within two minutes. */
    Result run(String... args) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command(args)).start();
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        byte[] out = process.getInputStream().readAllBytes();
        boolean ended = process.waitFor(2, TimeUnit.MINUTES);
        if (!ended) {
            process.destroyForcibly();
        }
        assertThat(ended).as("ankusa %s ended", String.join(" ", args)).isTrue();
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8),
                new String(err.join(), StandardCharsets.UTF_8));
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dankusa.progress=off",
                // as ./ankusa does: JDK 24+ would warn on stderr about the natives RocksDB and jffi load
                "--enable-native-access=rocksdbjni,org.jnrproject.jffi",
                "--module-path", join(modulePath),
                "--class-path", join(classPath),
                "--module", "io.ankusa.cli/io.ankusa.cli.Ankusa"));
        command.addAll(List.of(args));
        return command;
    }

    /** Starts {@code ankusa args…} and leaves it running: the caller reads its output and ends it. */
    Process start(String... args) throws IOException {
        return new ProcessBuilder(command(args)).start();
    }

    private static byte[] readAll(java.io.InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Set<Path> testRuntimePath() {
        Set<Path> entries = new LinkedHashSet<>();
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            for (String entry : System.getProperty(property, "").split(Pattern.quote(File.pathSeparator))) {
                if (!entry.isBlank()) {
                    entries.add(Path.of(entry));
                }
            }
        }
        return entries;
    }

    private static String join(List<Path> paths) {
        return paths.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }
}
