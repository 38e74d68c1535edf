package io.ankusa.store.spi;

import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kinds of a store's families, persisted in the file {@value #FILE_NAME} of its directory.
 *
 * <p>A backend reconciles the declared families with this file <em>before</em> it opens anything:
 * RocksDB drops the merge operands in its log for good when a counter family is reopened without
 * its merge operator, so a kind mismatch must be refused before the backend replays that log. A
 * family the store holds but the caller does not declare is refused too: that is how an older
 * release refuses a store a newer one has extended.
 *
 * <p>The catalog also names the backend that wrote the store, so that a store written by one
 * backend is never opened (and silently recreated beside itself) by another.
 *
 * <p>File format: a line {@code @backend NAME}, then one line per family, {@code name kind}, in
 * declaration order. A catalog without the backend line (older builds) is accepted and completed.
 */
public final class FamilyCatalog {

    /** The catalog's file name inside a store directory. */
    public static final String FILE_NAME = "ankusa-families";

    private static final String BACKEND = "@backend";

    private FamilyCatalog() {
    }

    /**
     * The persisted kinds, if the directory has a catalog.
     *
     * @param directory the store's directory
     * @return each family's kind in catalog order, or empty without a catalog
     */
    public static Optional<Map<String, FamilyKind>> read(Path directory) {
        return lines(directory).map(lines -> {
            Map<String, FamilyKind> kinds = new LinkedHashMap<>();
            lines.stream().filter(l -> !l.startsWith(BACKEND)).forEach(l -> parse(directory, l, kinds));
            return kinds;
        });
    }

    /**
     * The backend that wrote the store, if its catalog names one.
     *
     * @param directory the store's directory
     * @return the backend's name, or empty
     */
    public static Optional<String> backend(Path directory) {
        return lines(directory).flatMap(lines -> lines.stream()
                .filter(l -> l.startsWith(BACKEND + " "))
                .map(l -> l.substring(BACKEND.length() + 1).trim())
                .findFirst());
    }

    private static Optional<List<String>> lines(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .map(String::trim).filter(l -> !l.isEmpty()).toList());
        } catch (IOException e) {
            throw new StoreException(StoreError.IO, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static void parse(Path directory, String line, Map<String, FamilyKind> kinds) {
        Path file = directory.resolve(FILE_NAME);
        String[] parts = line.split(" ");
        if (parts.length != 2) {
            throw new StoreCorruptionException("bad line in " + file + ": '" + line + "'");
        }
        try {
            kinds.put(parts[0], FamilyKind.valueOf(parts[1]));
        } catch (IllegalArgumentException e) {
            throw new StoreCorruptionException("bad family kind in " + file + ": '" + line + "'", e);
        }
    }

    /**
     * Checks {@code declared} against the catalog of {@code directory} and records any new family.
     *
     * @param backend the name of the backend opening the store
     * @param directory the store's directory
     * @param declared the families the store is opened with
     * @throws StoreException with {@link StoreError#BACKEND_MISMATCH} when another backend wrote the
     *                        store, or {@link StoreError#FAMILY_MISMATCH} when a family changed kind
     *                        or the store holds a family not declared
     */
    public static void reconcile(Path directory, String backend, List<FamilySpec> declared) {
        Optional<String> writer = backend(directory);
        if (writer.isPresent() && !writer.get().equals(backend)) {
            throw new StoreException(StoreError.BACKEND_MISMATCH, "store " + directory + " was written by the '"
                    + writer.get() + "' backend; it cannot be opened with '" + backend + "'");
        }
        Map<String, FamilyKind> persisted = read(directory).orElseGet(LinkedHashMap::new);
        Map<String, FamilyKind> wanted = new LinkedHashMap<>();
        for (FamilySpec spec : declared) {
            wanted.put(spec.name(), spec.kind());
            FamilyKind before = persisted.get(spec.name());
            if (before != null && before != spec.kind()) {
                throw new StoreException(StoreError.FAMILY_MISMATCH, "family '" + spec.name() + "' is "
                        + before + " in " + directory + " but was declared " + spec.kind()
                        + "; refusing to open (counter operands would be lost)");
            }
        }
        for (String name : persisted.keySet()) {
            if (!wanted.containsKey(name)) {
                throw new StoreException(StoreError.FAMILY_MISMATCH, "store " + directory + " holds family '"
                        + name + "' that this release does not declare (written by a newer release?)");
            }
        }
        if (writer.isEmpty() || !List.copyOf(persisted.keySet()).equals(List.copyOf(wanted.keySet()))
                || !persisted.equals(wanted)) {
            write(directory, backend, wanted);
        }
    }

    /**
     * Copies the catalog of {@code from} into {@code to} (for checkpoints).
     *
     * @param from the store directory to copy from
     * @param to the checkpoint directory
     */
    public static void copy(Path from, Path to) {
        Optional<String> writer = backend(from);
        read(from).ifPresent(kinds -> write(to, writer.orElse(null), kinds));
    }

    private static void write(Path directory, String backend, Map<String, FamilyKind> kinds) {
        StringBuilder text = new StringBuilder();
        if (backend != null) {
            text.append(BACKEND).append(' ').append(backend).append('\n');
        }
        kinds.forEach((name, kind) -> text.append(name).append(' ').append(kind).append('\n'));
        Path file = directory.resolve(FILE_NAME);
        Path tmp = directory.resolve(FILE_NAME + ".tmp");
        try {
            Files.createDirectories(directory);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(StandardCharsets.UTF_8.encode(text.toString()));
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            syncDirectory(directory);
        } catch (IOException e) {
            throw new StoreException(StoreError.IO, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void syncDirectory(Path directory) {
        try (FileChannel ch = FileChannel.open(directory, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some platforms cannot open a directory for sync; the rename itself is still atomic.
        }
    }
}
