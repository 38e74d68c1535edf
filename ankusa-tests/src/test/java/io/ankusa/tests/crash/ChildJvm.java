package io.ankusa.tests.crash;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM running a main class on this JVM's class path, whose stdout the parent reads line by
 * line; stderr goes to a file (quoted when something fails). {@link #killNine()} is
 * {@link Process#destroyForcibly()}, SIGKILL on Linux: no shutdown hook, no finally block, no
 * flush runs in the child.
 */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final BufferedReader stdout;
    private final Path stderr;

    private ChildJvm(Process process, Path stderr) {
        this.process = process;
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.stderr = stderr;
    }

    /** Starts {@code java -cp <this class path> <main> <args>}, stderr to {@code stderr}. */
    static ChildJvm start(Class<?> main, Path stderr, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-XX:+UseSerialGC");
        // a child that crashes writes its crash log beside its stderr, not into the build's working directory
        command.add("-XX:ErrorFile=" + stderr.toAbsolutePath().getParent().resolve("hs_err_pid%p.log"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
            return new ChildJvm(process, stderr);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads lines, handing each to {@code sink}, until {@code sink} returns true; fails if the child
     * ends first or prints an {@code error} line.
     */
    void readUntil(Predicate<String> sink) {
        try {
            String line;
            while ((line = stdout.readLine()) != null) {
                if (line.startsWith("error")) {
                    throw new AssertionError("child reported: " + line + "\n" + stderrTail());
                }
                if (sink.test(line)) {
                    return;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new AssertionError("child ended early (exit " + exitCode() + ")\n" + stderrTail());
    }

    /** Writes {@code line} to the child's stdin and flushes it. */
    void send(String line) {
        try {
            process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * SIGKILL, then waits for the child to be gone; returns the lines it had printed but the parent
     * had not read yet (every one of them was printed before the kill, so they count too).
     */
    List<String> killNine() {
        process.toHandle().destroyForcibly();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("child did not die within 60 s of SIGKILL");
            }
            List<String> rest = new ArrayList<>();
            String line;
            while ((line = stdout.readLine()) != null) {
                rest.add(line);
            }
            return rest;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the child", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Everything a child printed before it exited by itself, and its exit status. */
    record Finished(int exitCode, List<String> lines) {
    }

    /** Reads every line until the child exits by itself; fails if it runs longer than two minutes. */
    Finished awaitExit() {
        try {
            List<String> lines = new ArrayList<>();
            String line;
            while ((line = stdout.readLine()) != null) {
                lines.add(line);
            }
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                throw new AssertionError("child did not exit within 120 s\n" + stderrTail());
            }
            return new Finished(process.exitValue(), lines);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the child", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String exitCode() {
        try {
            return process.waitFor(10, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** The last lines the child wrote to stderr. */
    String stderrTail() {
        try {
            List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
            return "child stderr (last 40 lines):\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "child stderr unreadable: " + e;
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(60, TimeUnit.SECONDS);
            stdout.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the child is gone; nothing left to read
        }
    }
}
