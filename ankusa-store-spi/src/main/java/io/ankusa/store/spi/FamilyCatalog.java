package io.ankusa.store.spi;

import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.StoreCorruptionException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.Stores;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The kinds of a store's families, persisted in the file {@value #FILE_NAME} of its directory, and
 * the one decision every open path takes about a store directory: no store, a store, or damage.
 *
 * <h2>Why it exists</h2>
 *
 * <p>A backend reconciles the declared families with this file <em>before</em> it opens anything:
 * RocksDB drops the merge operands in its log for good when a counter family is reopened without
 * its merge operator, so a kind mismatch must be refused before the backend replays that log. A
 * family the store holds but the caller does not declare is refused too: that is how an older
 * release refuses a store a newer one has extended. The catalog also names the backend that wrote
 * the store, so that a store written by one backend is never opened (and silently recreated beside
 * itself) by another.
 *
 * <h2>No store, a store, or damage: decided once</h2>
 *
 * <p>{@link #inspect} is that decision, and the backends ({@link #reconcile}), the command line and
 * the upgrade tools all go through it, so they can never disagree:
 * <ul>
 *   <li>no catalog and no backend's data files ({@link StoreProvider#dataFiles}): <b>no store</b>;</li>
 *   <li>no catalog next to data files: <b>corruption</b> — a deleted catalog must not turn a store
 *       into a new, empty one;</li>
 *   <li>a catalog that is empty, not UTF-8, fails its checksum or does not parse: <b>corruption</b>;</li>
 *   <li>a catalog of a newer catalog format: {@link StoreError#FAMILY_MISMATCH} (a newer release);</li>
 *   <li>a catalog in state {@code created}: a store whose data files <em>must</em> be there; the
 *       backend refuses with {@link StoreCorruptionException} when they are not
 *       ({@link #created()}), so a deleted data file never opens as a new empty store.</li>
 * </ul>
 *
 * <p>A new store's catalog is written in state {@code creating} before the backend creates its
 * files, and rewritten in state {@code created} ({@link #markCreated}) once they exist. A crash in
 * between leaves a {@code creating} catalog: nothing was ever committed there, so the next open
 * with {@code createIfMissing} simply creates the store, and one without it finds no store.
 *
 * <h2>File format</h2>
 *
 * <pre>
 * line               meaning
 * ------------------ ------------------------------------------------------------------
 * ankusa-families 2  header: catalog format 2 (a higher number: a newer release wrote it)
 * &#64;backend NAME      the backend that wrote the store
 * &#64;state STATE       creating | created
 * NAME KIND          one line per family, in declaration order; KIND is PLAIN or COUNTER
 * &#64;crc32c HEX        CRC-32C of every byte before this line, 8 lowercase hex digits
 * </pre>
 *
 * <p>Every catalog format, this one and any later, ends with the {@code @crc32c} line over the
 * bytes before it, and the checksum is verified before the header's format number is believed:
 * a damaged number reads as damage, an intact higher one as a newer release.
 *
 * <p>Lines end with {@code \n}; the file is UTF-8 and written atomically (temporary file, fsync,
 * rename, directory fsync). Catalogs of earlier builds (no header: an optional {@code @backend}
 * line, then the family lines, no checksum) are still read, strictly, as stores in state
 * {@code created}, and are rewritten in format 2 the next time the store is opened. A legacy
 * catalog cut exactly at a line end cannot be told from a shorter one; format 2 can.
 */
public final class FamilyCatalog {

    /** The catalog's file name inside a store directory. */
    public static final String FILE_NAME = "ankusa-families";

    /** The catalog format this release writes. */
    static final int FORMAT = 2;

    private static final String HEADER = FILE_NAME + " ";
    private static final String BACKEND = "@backend";
    private static final String STATE = "@state";
    private static final String CRC = "@crc32c";
    private static final String CREATING = "creating";
    private static final String CREATED = "created";

    private final String writer;
    private final Map<String, FamilyKind> kinds;
    private final boolean created;
    private final boolean legacy;

    private FamilyCatalog(String writer, Map<String, FamilyKind> kinds, boolean created, boolean legacy) {
        this.writer = writer;
        this.kinds = Collections.unmodifiableMap(new LinkedHashMap<>(kinds));
        this.created = created;
        this.legacy = legacy;
    }

    /** {@return the backend that wrote the store, when the catalog names one (catalogs of early builds did not)} */
    public Optional<String> writer() {
        return Optional.ofNullable(writer);
    }

    /** {@return the persisted family kinds, in declaration order} */
    public Map<String, FamilyKind> kinds() {
        return kinds;
    }

    /**
     * Whether the store was created: its backend's data files exist unless they were lost (then
     * the backend refuses the store as corrupt rather than starting it empty).
     *
     * @return whether the store's data files were created
     */
    public boolean created() {
        return created;
    }

    /**
     * What {@code directory} holds: empty when there is no store, the catalog when there is one.
     *
     * @throws StoreCorruptionException when the catalog is damaged, or missing next to data files
     * @throws StoreException           with {@link StoreError#FAMILY_MISMATCH} when a newer release
     *                                  wrote the catalog, or {@link StoreError#IO} when it cannot be read
     * @param directory the store directory
     * @return the catalog, or empty when the directory holds no store
     */
    public static Optional<FamilyCatalog> inspect(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            refuseDataWithoutCatalog(directory);
            return Optional.empty();
        } catch (IOException e) {
            if (!Files.exists(file)) {
                refuseDataWithoutCatalog(directory);
                return Optional.empty();
            }
            throw new StoreException(StoreError.IO, "cannot read " + file + ": " + e.getMessage(), e);
        }
        return Optional.of(parse(file, bytes));
    }

    /**
     * The persisted kinds, if the directory has a store (see {@link #inspect} for what it refuses).
     *
     * @param directory the store directory
     * @return the family kinds, or empty when there is no store
     */
    public static Optional<Map<String, FamilyKind>> read(Path directory) {
        return inspect(directory).map(FamilyCatalog::kinds);
    }

    /**
     * The backend that wrote the store, if it has a catalog that names one (see {@link #inspect}).
     *
     * @param directory the store directory
     * @return the backend's name, or empty
     */
    public static Optional<String> backend(Path directory) {
        return inspect(directory).flatMap(FamilyCatalog::writer);
    }

    private static void refuseDataWithoutCatalog(Path directory) {
        for (StoreProvider provider : Stores.providers()) {
            List<Path> data = provider.dataFiles(directory);
            if (!data.isEmpty()) {
                throw new StoreCorruptionException("store " + directory + " holds " + provider.name()
                        + " data files " + names(data) + " but its family catalog " + FILE_NAME
                        + " is missing; refusing to treat it as a new store. Restore the catalog (or the"
                        + " whole directory) from a backup or checkpoint");
            }
        }
    }

    private static List<String> names(List<Path> files) {
        List<String> names = new ArrayList<>();
        files.stream().limit(5).forEach(f -> names.add(String.valueOf(f.getFileName())));
        if (files.size() > 5) {
            names.add("…");
        }
        return names;
    }

    private static FamilyCatalog parse(Path file, byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw corrupt(file, "it is not UTF-8 text", e);
        }
        if (text.isBlank()) {
            throw corrupt(file, "it is empty", null);
        }
        return text.startsWith(HEADER) ? parseCurrent(file, text) : parseLegacy(file, text);
    }

    private static FamilyCatalog parseCurrent(Path file, String text) {
        int headerEnd = text.indexOf('\n');
        String header = headerEnd < 0 ? text : text.substring(0, headerEnd);
        int format;
        try {
            format = Integer.parseInt(header.substring(HEADER.length()));
        } catch (NumberFormatException e) {
            throw corrupt(file, "its header '" + printable(header) + "' does not parse", e);
        }
        // The checksum first: a damaged format number must read as damage, not as a newer release.
        int crcAt = text.lastIndexOf("\n" + CRC + " ");
        if (crcAt < 0 || !text.endsWith("\n")) {
            throw corrupt(file, "its checksum line is missing (cut short?)", null);
        }
        String body = text.substring(0, crcAt + 1);
        String stored = text.substring(crcAt + 1 + CRC.length() + 1, text.length() - 1);
        if (!stored.equals(crc(body))) {
            throw corrupt(file, "its checksum does not match (stored " + printable(stored) + ", computed "
                    + crc(body) + ")", null);
        }
        if (format > FORMAT) {
            throw new StoreException(StoreError.FAMILY_MISMATCH, "the family catalog " + file + " is at catalog format "
                    + format + "; this release reads up to " + FORMAT + " (written by a newer release?)");
        }
        if (format < FORMAT) {
            throw corrupt(file, "its header names catalog format " + format + ", which never existed", null);
        }
        String writer = null;
        String state = null;
        Map<String, FamilyKind> kinds = new LinkedHashMap<>();
        List<String> lines = List.of(body.split("\n"));
        for (String line : lines.subList(1, lines.size())) {
            if (line.startsWith(BACKEND + " ") && writer == null) {
                writer = line.substring(BACKEND.length() + 1);
            } else if (line.startsWith(STATE + " ") && state == null) {
                state = line.substring(STATE.length() + 1);
            } else {
                family(file, line, kinds);
            }
        }
        if (!CREATING.equals(state) && !CREATED.equals(state)) {
            throw corrupt(file, "its state is '" + printable(String.valueOf(state)) + "'", null);
        }
        if (kinds.isEmpty()) {
            throw corrupt(file, "it lists no family", null);
        }
        return new FamilyCatalog(writer, kinds, CREATED.equals(state), false);
    }

    private static FamilyCatalog parseLegacy(Path file, String text) {
        String writer = null;
        Map<String, FamilyKind> kinds = new LinkedHashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.trim();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith(BACKEND + " ") && writer == null && kinds.isEmpty()) {
                writer = line.substring(BACKEND.length() + 1).trim();
            } else {
                family(file, line, kinds);
            }
        }
        if (kinds.isEmpty()) {
            throw corrupt(file, "it lists no family", null);
        }
        return new FamilyCatalog(writer, kinds, true, true);
    }

    private static void family(Path file, String line, Map<String, FamilyKind> kinds) {
        String[] parts = line.split(" ");
        if (parts.length != 2 || parts[0].isEmpty() || kinds.containsKey(parts[0])) {
            throw corrupt(file, "of the line '" + printable(line) + "'", null);
        }
        try {
            kinds.put(parts[0], FamilyKind.valueOf(parts[1]));
        } catch (IllegalArgumentException e) {
            throw corrupt(file, "of the family kind in the line '" + printable(line) + "'", e);
        }
    }

    private static StoreCorruptionException corrupt(Path file, String why, Throwable cause) {
        return new StoreCorruptionException("the family catalog " + file + " is damaged: " + why
                + "; restore the store directory from a backup or checkpoint", cause);
    }

    /** At most 80 characters of {@code text}, control characters shown as {@code ?}. */
    private static String printable(String text) {
        String cut = text.length() > 80 ? text.substring(0, 80) + "…" : text;
        StringBuilder out = new StringBuilder(cut.length());
        cut.codePoints().forEach(c -> out.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return out.toString();
    }

    /**
     * The open step of every backend, taken with the {@link DirectoryLock} held and before the
     * backend touches its data: decides what the directory holds ({@link #inspect}), checks
     * {@code declared} against the catalog and records any new family.
     *
     * @param directory       the store directory
     * @param backend         the name of the backend opening the store
     * @param declared        the families the opener declares, with their kinds
     * @param createIfMissing whether to start a new store when the directory holds none
     * @return {@code true} when the store was created before: the backend's data files must be
     *         there, and their absence is corruption; {@code false} for a new store, whose catalog
     *         is now in state {@code creating}: the backend creates its files, then calls
     *         {@link #markCreated}
     * @throws StoreException with {@link StoreError#NOT_FOUND} when there is no store and
     *                        {@code createIfMissing} is false, {@link StoreError#BACKEND_MISMATCH}
     *                        when another backend wrote the store, {@link StoreError#FAMILY_MISMATCH}
     *                        when a family changed kind or the store holds a family not declared, or
     *                        {@link StoreCorruptionException} as {@link #inspect} says
     */
    public static boolean reconcile(Path directory, String backend, List<FamilySpec> declared,
            boolean createIfMissing) {
        Optional<FamilyCatalog> found = inspect(directory);
        boolean created = found.map(FamilyCatalog::created).orElse(false);
        if (!created && !createIfMissing) {
            throw new StoreException(StoreError.NOT_FOUND, "no " + backend + " store in " + directory
                    + (found.isPresent() ? " (its creation never finished)" : "") + " and createIfMissing is false");
        }
        Optional<String> writer = found.flatMap(FamilyCatalog::writer);
        if (writer.isPresent() && !writer.get().equals(backend)) {
            throw new StoreException(StoreError.BACKEND_MISMATCH, "store " + directory + " was written by the '"
                    + writer.get() + "' backend; it cannot be opened with '" + backend + "'");
        }
        Map<String, FamilyKind> persisted = created ? found.get().kinds() : Map.of();
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
        FamilyCatalog next = new FamilyCatalog(backend, wanted, created, false);
        if (found.isEmpty() || !found.get().sameAs(next)) {
            next.write(directory);
        }
        return created;
    }

    /**
     * Records that the new store of {@code directory} now has its data files (see
     * {@link #reconcile}); from here on their absence is corruption.
     *
     * @param directory the store directory
     */
    public static void markCreated(Path directory) {
        FamilyCatalog catalog = inspect(directory).orElseThrow(() -> new StoreException(StoreError.IO,
                "the family catalog of " + directory + " vanished while the store was being created"));
        if (!catalog.created) {
            new FamilyCatalog(catalog.writer, catalog.kinds, true, false).write(directory);
        }
    }

    /**
     * Copies the catalog of {@code from} into {@code to} (for checkpoints, whose data files exist).
     *
     * @param from the store directory copied
     * @param to   the checkpoint directory
     */
    public static void copy(Path from, Path to) {
        inspect(from).ifPresent(c -> new FamilyCatalog(c.writer, c.kinds, true, false).write(to));
    }

    private boolean sameAs(FamilyCatalog other) {
        return !legacy && created == other.created && Objects.equals(writer, other.writer)
                && List.copyOf(kinds.entrySet()).equals(List.copyOf(other.kinds.entrySet()));
    }

    /** The file's text in format {@value #FORMAT}. */
    String text() {
        StringBuilder body = new StringBuilder();
        body.append(HEADER).append(FORMAT).append('\n');
        if (writer != null) {
            body.append(BACKEND).append(' ').append(writer).append('\n');
        }
        body.append(STATE).append(' ').append(created ? CREATED : CREATING).append('\n');
        kinds.forEach((name, kind) -> body.append(name).append(' ').append(kind).append('\n'));
        return body + CRC + " " + crc(body.toString()) + "\n";
    }

    private static String crc(String body) {
        CRC32C crc = new CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().toHexDigits((int) crc.getValue());
    }

    private void write(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        Path tmp = directory.resolve(FILE_NAME + ".tmp");
        try {
            Files.createDirectories(directory);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(StandardCharsets.UTF_8.encode(text()));
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
