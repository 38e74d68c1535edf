package io.ankusa.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * An open key-value store with column families, ordered scans, atomic batches and blind-merge
 * counters. Keys are non-empty byte strings compared as unsigned bytes.
 *
 * <p>Thread-safe: reads, scans and commits may run from any number of threads. Each read and each
 * scan sees one consistent view. Merges are exact under any number of concurrent committers.
 *
 * <p>Every error is a {@link StoreException}; using a closed store raises
 * {@link StoreClosedException}; naming an undeclared family raises {@link UnknownFamilyException}.
 */
public interface Store extends AutoCloseable {

    /** {@return the backend's provider name ({@code rocksdb}, {@code lmdb}, …)} */
    String backend();

    /** {@return the directory the store lives in} */
    Path directory();

    /** {@return the families the store was opened with} */
    List<FamilySpec> families();

    /**
     * The value at {@code key} of a plain family.
     *
     * @param family a plain family
     * @param key the key
     * @return the value, or empty when the key is absent
     */
    Optional<byte[]> get(String family, byte[] key);

    /**
     * The values at {@code keys} of a plain family, in the same order, from one consistent view.
     * A corrupt entry throws; it is never reported as absent.
     *
     * @param family a plain family
     * @param keys the keys
     * @return one entry per key, empty where the key is absent
     */
    List<Optional<byte[]>> multiGet(String family, List<byte[]> keys);

    /**
     * The summed value of a counter row; 0 when the row has no value.
     *
     * @param family a counter family
     * @param key the counter row
     * @return the sum of its merge operands
     */
    long counter(String family, byte[] key);

    /**
     * The summed values of counter rows, in order, from one consistent view.
     *
     * @param family a counter family
     * @param keys the counter rows
     * @return one sum per key, 0 where a row has no value
     */
    long[] counters(String family, List<byte[]> keys);

    /**
     * An ordered scan of {@code range} of a family (for a counter family, values are 8-byte little-endian sums).
     *
     * @param family the family
     * @param range the keys to visit
     * @param direction ascending or descending key order
     * @return an open scan; close it
     */
    Scan scan(String family, KeyRange range, Direction direction);

    /**
     * A forward scan of {@code range}.
     *
     * @param family the family
     * @param range the keys to visit
     * @return an open scan in ascending key order; close it
     */
    default Scan scan(String family, KeyRange range) {
        return scan(family, range, Direction.FORWARD);
    }

    /**
     * A forward {@link Cursor} over {@code family}: one reader for many range reads. The default
     * opens a {@link #scan} per seek; a backend overrides it to reuse one iterator.
     *
     * @param family the family
     * @return an open cursor; close it
     */
    default Cursor cursor(String family) {
        if (families().stream().noneMatch(f -> f.name().equals(family))) {
            throw new UnknownFamilyException("unknown family '" + family + "'");
        }
        return new ScanPerSeekCursor(this, family);
    }

    /**
     * Applies every op of {@code batch} atomically. The batch is validated first: a put into a
     * counter family, a merge into a plain family or an unknown family is refused with nothing
     * written. An empty batch with {@link Durability#SYNC} still makes earlier writes durable.
     *
     * @param batch the ops to apply
     * @param durability whether the commit returns only once it is on disk ({@link Durability#SYNC})
     */
    void commit(WriteBatch batch, Durability durability);

    /**
     * How many bytes the store takes on disk now, as the backend counts them: what an operator sizes
     * a volume by. RocksDB: the live SST files of every family plus the memtables not yet flushed
     * (two property reads, no file system call); LMDB: the pages of the data file in use up to its
     * highest written page (one environment read; LMDB reuses freed pages and never shrinks the
     * file).
     *
     * <p>The default, for an adapter that does not override it, sums the sizes of the regular files
     * under {@link #directory()} (one directory walk per call, so O(files); a file removed during
     * the walk counts 0); a store that is not a
     * directory of files (an in-memory store) overrides it. An I/O error walking the directory is
     * a {@link StoreException} ({@link StoreError#IO}).
     *
     * @return the store's size in bytes, at least 0
     */
    default long sizeBytes() {
        try (Stream<Path> files = Files.walk(directory())) {
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return Files.size(file);
                } catch (NoSuchFileException e) {
                    return 0; // removed since the walk listed it (a compaction's input, say)
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            throw new StoreException(StoreError.IO, "cannot measure the store in " + directory() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Writes a consistent copy of the store into {@code target} (which must not exist) that opens as a store.
     *
     * @param target the directory to create
     */
    void checkpoint(Path target);

    /** Releases the store; idempotent. Scans still open are invalidated. */
    @Override
    void close();
}
