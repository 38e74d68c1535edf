package io.ankusa.bench.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileVisitResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads this JVM's footprint from Linux's {@code /proc/self} and the JVM's management beans, and a
 * store's size from its directory.
 */
final class ProcessProbe {

    private ProcessProbe() {
    }

    /** Resident set size in bytes ({@code VmRSS} of {@code /proc/self/status}). */
    static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] parts = line.trim().split("\\s+");
                    return Long.parseLong(parts[1]) * 1024;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no VmRSS line in /proc/self/status");
    }

    /** Open file descriptors: entries of {@code /proc/self/fd}. */
    static long openFiles() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Live threads. */
    static long threads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    /** Heap in use right after a full collection ({@link System#gc()}, then the memory bean). */
    static long heapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * The block cache's usage at each of RocksDB's stats dumps (every 10 min) in the store's
     * {@code LOG}, as printed there ({@code "usage: 8.54 MB"}), one per dump; empty without a
     * {@code LOG} (LMDB).
     */
    static List<String> blockCacheUsage(Path directory) {
        Path log = directory.resolve("LOG");
        if (!Files.isRegularFile(log)) {
            return List.of();
        }
        List<String> usage = new ArrayList<>();
        Matcher at = Pattern.compile("^(\\S+)").matcher("");
        Matcher cache = Pattern.compile("Block cache \\S+ capacity: (\\S+ \\S+) .*usage: (\\S+ \\S+)").matcher("");
        String dumpTime = "";
        try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.contains("------- DUMPING STATS -------") && at.reset(line).find()) {
                    dumpTime = at.group(1);
                } else if (cache.reset(line).find() && !dumpTime.isEmpty()) {
                    usage.add(dumpTime.substring(dumpTime.indexOf('-') + 1) + " " + cache.group(2) + " of "
                            + cache.group(1));
                    dumpTime = "";
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return usage;
    }

    /** Bytes in the regular files under {@code directory}. */
    static long directoryBytes(Path directory) {
        return files(directory, name -> true)[1];
    }

    /**
     * Bytes in the regular files under {@code directory} whose name starts with {@code prefix}
     * (RocksDB's info log: {@code LOG} and {@code LOG.old.*}; its {@code MANIFEST-*}).
     */
    static long prefixBytes(Path directory, String prefix) {
        return files(directory, name -> name.startsWith(prefix))[1];
    }

    /** Number of files under {@code directory} whose name ends with {@code suffix}. */
    static long fileCount(Path directory, String suffix) {
        return files(directory, name -> name.endsWith(suffix))[0];
    }

    /** Bytes in the files under {@code directory} whose name ends with {@code suffix}. */
    static long fileBytes(Path directory, String suffix) {
        return files(directory, name -> name.endsWith(suffix))[1];
    }

    /** {count, bytes} of the regular files whose name {@code named} accepts; a file deleted during the walk is skipped. */
    private static long[] files(Path directory, Predicate<String> named) {
        long[] countAndBytes = new long[2];
        try {
            Files.walkFileTree(directory, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    Path name = file.getFileName();
                    if (attributes.isRegularFile() && name != null && named.test(name.toString())) {
                        countAndBytes[0]++;
                        countAndBytes[1] += attributes.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return countAndBytes;
    }
}
