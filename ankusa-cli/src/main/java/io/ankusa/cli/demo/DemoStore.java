package io.ankusa.cli.demo;

import io.ankusa.store.spi.DirectoryLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/**
 * The directory a demo runs in. The demo starts from an empty store every time, so it replaces
 * the store a previous demo left (recognised by the marker file {@value #MARKER}), and refuses
 * any other non-empty directory: a demo must never deliver, or delete, someone's real hooks. A
 * demo store still open in another process is refused too ({@link io.ankusa.store.StoreLockedException}).
 */
public final class DemoStore {

    /** The file that marks a directory as a demo's store. */
    public static final String MARKER = "ankusa-demo";

    private DemoStore() {
    }

    /** What {@link #prepare} found. */
    public enum Previous {
        /** Nothing there, or an empty directory. */
        NONE,
        /** A previous demo's store, deleted. */
        DEMO_REPLACED
    }

    /**
     * Makes {@code directory} an empty demo store directory.
     *
     * @throws IllegalStateException when it holds something that is not a demo's store
     */
    public static Previous prepare(Path directory) {
        try {
            Previous previous = Previous.NONE;
            if (Files.exists(directory)) {
                if (!Files.isDirectory(directory)) {
                    throw new IllegalStateException(directory + " is a file, not a directory");
                }
                if (!isEmpty(directory)) {
                    if (!Files.isRegularFile(directory.resolve(MARKER))) {
                        throw new IllegalStateException(directory + " is not empty and is not a demo's store;"
                                + " pass --store with a new directory");
                    }
                    // A demo still running there keeps its lock: refuse (StoreLockedException) before deleting.
                    DirectoryLock.acquire(directory).close();
                    deleteTree(directory);
                    previous = Previous.DEMO_REPLACED;
                }
            }
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(MARKER),
                    "Written by 'ankusa demo': the demo replaces this store when it runs again.\n");
            return previous;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare demo store " + directory + ": " + e.getMessage(), e);
        }
    }

    private static boolean isEmpty(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.findAny().isEmpty();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
