package io.ankusa.store.rocksdb;

import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files that make a directory a RocksDB database: {@code CURRENT}, which names the live
 * {@code MANIFEST-*}, which lists the table files ({@code *.sst}) and logs.
 *
 * <p>RocksDB itself, asked to open with {@code create_if_missing}, creates a new empty database
 * when {@code CURRENT} is gone, and fails with a plain I/O error when the manifest is: for a store
 * the family catalog says was created, both are corruption, reported before RocksDB opens.
 */
final class RocksDataFiles {

    /** The file naming the live manifest. */
    static final String CURRENT = "CURRENT";

    private RocksDataFiles() {
    }

    /** {@code CURRENT}, manifests and table files present in {@code directory}. */
    static List<Path> present(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> {
                String name = String.valueOf(f.getFileName()); // a listed entry always has a name
                return name.equals(CURRENT) || name.startsWith("MANIFEST-") || name.endsWith(".sst");
            }).sorted().toList();
        } catch (IOException e) {
            throw new StoreException(StoreError.IO, "cannot list " + directory + ": " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a created store whose {@code CURRENT} or live manifest is missing.
     *
     * @throws StoreCorruptionException naming the missing file
     */
    static void requirePresent(Path directory) {
        Path current = directory.resolve(CURRENT);
        if (!Files.isRegularFile(current)) {
            throw missing(directory, current);
        }
        String manifest;
        try {
            manifest = Files.readString(current, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new StoreException(StoreError.IO, "cannot read " + current + ": " + e.getMessage(), e);
        }
        if (!manifest.startsWith("MANIFEST-") || manifest.contains("/")) {
            throw new StoreCorruptionException("the RocksDB file " + current + " is damaged: it names '"
                    + manifest.replaceAll("\\p{Cntrl}", "?") + "' rather than a manifest. Restore the store directory"
                    + " from a backup or checkpoint");
        }
        Path live = directory.resolve(manifest);
        if (!Files.isRegularFile(live)) {
            throw missing(directory, live);
        }
    }

    private static StoreCorruptionException missing(Path directory, Path file) {
        return new StoreCorruptionException("the RocksDB file " + file.getFileName() + " of store " + directory
                + " is missing, but the family catalog says the store was created: refusing to start it empty."
                + " Restore the store directory from a backup or checkpoint");
    }
}
