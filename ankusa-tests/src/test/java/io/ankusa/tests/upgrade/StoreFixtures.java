package io.ankusa.tests.upgrade;

import io.ankusa.api.Hook;
import io.ankusa.queue.migration.FormatTwoFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The upgrade tests' view of the fixture stores that {@link io.ankusa.queue.fixtures.StoreFixtures} writes
 * (its Javadoc tables the rows per tenant the tests assert): the committed archives on the class
 * path, unpacking, and the fixture task ({@link #main}, run by the {@code fixtures} profile;
 * docs/testing.md), which rewrites the archives committed under
 * {@code ankusa-tests/src/test/resources/fixtures/} as {@code store-v<format>-<backend>.zip}.
 */
public final class StoreFixtures {

    /** The fixtures' clock: 2026-01-01T00:00:00Z ({@link io.ankusa.queue.fixtures.StoreFixtures#EPOCH}). */
    public static final long EPOCH = io.ankusa.queue.fixtures.StoreFixtures.EPOCH;

    /** The backends a fixture is written for. */
    public static final List<String> BACKENDS = List.of("rocksdb", "lmdb");

    /** Where the committed fixtures live, relative to the repository root. */
    public static final Path COMMITTED = Paths.get("ankusa-tests", "src", "test", "resources", "fixtures");

    private StoreFixtures() {
    }

    /** The archive's file name: {@code store-v2-rocksdb.zip}. */
    public static String archiveName(int format, String backend) {
        return io.ankusa.queue.fixtures.StoreFixtures.archiveName(format, backend);
    }

    /** The committed fixture as a class path resource (open it, then {@link #unpack(InputStream, Path)}). */
    public static InputStream committed(int format, String backend) {
        InputStream in = StoreFixtures.class.getResourceAsStream("/fixtures/" + archiveName(format, backend));
        if (in == null) {
            throw new IllegalStateException("no committed fixture " + archiveName(format, backend)
                    + " on the class path; write it with the fixture task (docs/testing.md)");
        }
        return in;
    }

    /** Writes the format-2 fixture store into {@code target}, which must not exist. */
    public static void writeV2(String backend, Path target) {
        Path scratch = scratch("ankusa-fixture-v2");
        try {
            FormatTwoFixture.write(backend, scratch.resolve("store"), target, EPOCH);
        } finally {
            delete(scratch);
        }
    }

    /** Writes the format-3 fixture store into {@code target}, which must not exist, with the fixture writer. */
    public static void writeV3(String backend, Path target) {
        Path scratch = scratch("ankusa-fixture-v3");
        try {
            io.ankusa.queue.fixtures.StoreFixtures.write(scratch, backend);
            unpack(scratch.resolve(archiveName(3, backend)), target);
        } finally {
            delete(scratch);
        }
    }

    /** A small hook; {@code tenant} null for none. */
    static Hook hook(String id, String tenant, int... sinks) {
        return FormatTwoFixture.hook(id, tenant, sinks);
    }

    /** Unpacks {@code archive} into {@code target} (created; must not hold a store). */
    public static void unpack(InputStream archive, Path target) {
        try (ZipInputStream zip = new ZipInputStream(archive)) {
            Files.createDirectories(target);
            Path root = target.toAbsolutePath().normalize();
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                Path file = root.resolve(entry.getName()).normalize();
                if (!file.startsWith(root)) {
                    throw new IOException("archive entry escapes the target: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                } else {
                    Files.createDirectories(file.getParent());
                    Files.copy(zip, file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack into " + target, e);
        }
    }

    /** Unpacks the zip file {@code archive} into {@code target}. */
    public static void unpack(Path archive, Path target) {
        try (InputStream in = Files.newInputStream(archive)) {
            unpack(in, target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + archive, e);
        }
    }

    /**
     * Writes both fixtures for every backend with {@link io.ankusa.queue.fixtures.StoreFixtures#write} into
     * {@code args[0]} (default {@link #COMMITTED}, relative to the working directory), replacing
     * older archives.
     */
    public static void main(String[] args) throws IOException {
        Path out = args.length > 0 ? Paths.get(args[0]) : COMMITTED;
        for (String backend : BACKENDS) {
            for (Path archive : io.ankusa.queue.fixtures.StoreFixtures.write(out, backend)) {
                System.out.printf("%s  %,d bytes%n", archive, Files.size(archive));
            }
        }
    }

    private static Path scratch(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and everything in it, if it exists. */
    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    /** Copies the closed store in {@code from} into the new directory {@code to}. */
    public static void copy(Path from, Path to) {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.sorted().toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
        }
    }
}
