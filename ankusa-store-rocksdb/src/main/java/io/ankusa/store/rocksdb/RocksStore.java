package io.ankusa.store.rocksdb;

import io.ankusa.store.Bytes;
import io.ankusa.store.Cursor;
import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.UnknownFamilyException;
import io.ankusa.store.WriteBatch;
import io.ankusa.store.spi.BatchValidator;
import io.ankusa.store.spi.CounterCodec;
import io.ankusa.store.spi.DirectoryLock;
import io.ankusa.store.spi.FamilyCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * A {@link Store} on one RocksDB database: one RocksDB column family per declared family, under
 * the same name.
 *
 * <h2>What a commit guarantees across a crash</h2>
 *
 * <p>A commit is one RocksDB write batch, appended to the write-ahead log (WAL) as one record
 * before it is applied to the memtables; every family of the batch shares that record, so a batch
 * is applied whole or not at all, also across a crash.
 *
 * <ul>
 *   <li>{@link Durability#SYNC SYNC} fsyncs the WAL before {@code commit} returns:
 *       the batch survives a process crash and a power loss. Because the WAL is one append-only
 *       sequence, that fsync also hardens every earlier {@code ASYNC} commit; an empty batch with
 *       {@code SYNC} is a plain WAL fsync.</li>
 *   <li>{@link Durability#ASYNC ASYNC} writes the WAL record to the operating
 *       system and returns: the batch survives a process crash, but a power loss (or kernel crash)
 *       before the next synced commit, {@link #close()} or memtable flush may lose it. What is lost
 *       is a suffix of the commit order: replay stops at a log's incomplete final record (what a
 *       crash leaves of a write in progress), and that batch is dropped whole.</li>
 *   <li>{@link #close()} fsyncs the WAL, so every commit made before a clean close is durable.</li>
 * </ul>
 *
 * <p>Damage is not a torn tail. The log is replayed with RocksDB's
 * {@code kTolerateCorruptedTailRecords}: a record whose checksum fails, or a bad record length
 * with data after it, fails the open with {@link io.ankusa.store.StoreCorruptionException}
 * (point-in-time recovery read it as the end of the log and silently dropped every later batch,
 * synced ones too). A damaged final record is reported the same way: only an <em>incomplete</em>
 * one is taken for a crash. The replayed log stays in memtables at open ({@code
 * avoid_flush_during_recovery}), so an open needs no room for the whole log; the live log is
 * bounded by {@code rocksdb.maxTotalWalBytes}, which bounds the replay.
 *
 * <h2>A full disk</h2>
 *
 * <p>A commit that finds the disk full fails with {@link StoreError#NO_SPACE} and did not happen
 * (nothing acknowledged is lost). RocksDB then refuses every write until it resumes, which it does
 * by itself once the free space is at least the largest write buffer (16 MiB for the queue's
 * families): its space monitor checks every 5 s, flushes the memtables and starts a fresh log.
 *
 * <p>This rests on the file system honouring {@code fsync} (and on the disk not lying about its
 * write cache). Data on disk is covered by checksums: every read verifies them, and a mismatch is
 * reported as {@link io.ankusa.store.StoreCorruptionException}, never as an absent key or a short
 * scan.
 *
 * <h2>Counters</h2>
 *
 * <p>A counter family carries RocksDB's {@code UInt64AddOperator}; a {@code merge} op becomes a
 * blind merge operand (8-byte little-endian two's complement), so concurrent committers add
 * without reading and without a lock. The family kinds are kept in the {@link FamilyCatalog}
 * and checked <em>before</em> RocksDB opens: RocksDB would silently drop the operands in its log
 * when a counter family is reopened without its operator. Batches are checked by
 * {@link BatchValidator} before anything reaches RocksDB, because a merge into a family without
 * an operator, or an inverted range delete, leaves RocksDB refusing every later write.
 *
 * <h2>Threads</h2>
 *
 * <p>Every method may be called from any thread. Native calls run inside a {@link CloseGate}, so
 * {@link #close()} waits for calls in progress and a call racing it gets
 * {@link io.ankusa.store.StoreClosedException} rather than touching freed memory.
 */
final class RocksStore implements Store {

    private final Path directory;
    private final List<FamilySpec> families;
    private final Map<String, FamilyKind> kinds;
    private final Map<String, ColumnFamilyHandle> handles;
    private final List<ColumnFamilyHandle> allHandles;
    private final RocksDB db;
    private final NativeOptions natives;
    private final DirectoryLock lock;
    private final CloseGate gate;
    private final Set<RocksScan> openScans = ConcurrentHashMap.newKeySet();
    private final Set<RocksCursor> openCursors = ConcurrentHashMap.newKeySet();

    /** Bytes set aside per value in a plain {@link #multiGet}: a hook of a small payload fits. */
    static final int VALUE_SLOT_BYTES = 1024;

    /**
     * Keys from which a {@link #multiGet} walks an iterator over them ({@link RocksWalkRead}) rather than one
     * {@code MultiGet}.
     */
    static final int WALK_FROM_KEYS = 8;

    private RocksStore(Path directory, List<FamilySpec> families, List<ColumnFamilyHandle> allHandles,
            RocksDB db, NativeOptions natives, DirectoryLock lock) {
        this.directory = directory;
        this.families = families;
        this.allHandles = allHandles;
        this.db = db;
        this.natives = natives;
        this.lock = lock;
        this.gate = new CloseGate("rocksdb store " + directory);
        Map<String, FamilyKind> kindsByName = new LinkedHashMap<>();
        Map<String, ColumnFamilyHandle> handlesByName = new LinkedHashMap<>();
        for (int i = 0; i < families.size(); i++) {
            kindsByName.put(families.get(i).name(), families.get(i).kind());
            handlesByName.put(families.get(i).name(), allHandles.get(i));
        }
        this.kinds = Collections.unmodifiableMap(kindsByName);
        this.handles = Collections.unmodifiableMap(handlesByName);
    }

    /**
     * Opens a store: lock the directory, reconcile the family catalog (which decides whether the
     * directory holds a store), check that a created store still has its {@code CURRENT} file and
     * the manifest it names, then open RocksDB (which replays its WAL with every counter family's
     * merge operator in place). RocksDB would otherwise create a new empty database in place of a
     * missing {@code CURRENT}.
     */
    static RocksStore open(StoreOptions options) {
        RocksSettings settings = RocksSettings.parse(options.settings());
        Path directory = options.directory();
        if (!options.createIfMissing() && FamilyCatalog.inspect(directory).filter(FamilyCatalog::created).isEmpty()) {
            throw notFound(directory);
        }
        RocksDB.loadLibrary();
        DirectoryLock lock = DirectoryLock.acquire(directory);
        NativeOptions natives = null;
        List<ColumnFamilyHandle> allHandles = new ArrayList<>();
        RocksDB db = null;
        try {
            boolean created = FamilyCatalog.reconcile(directory, RocksStoreProvider.NAME, options.families(),
                    options.createIfMissing());
            if (created) {
                RocksDataFiles.requirePresent(directory);
            }
            natives = NativeOptions.build(options, settings);
            if (Files.exists(directory.resolve(RocksDataFiles.CURRENT))) {
                refuseUndeclaredRocksFamilies(directory, options.families());
            }
            db = RocksDB.open(natives.db(), directory.toString(), natives.descriptors(), allHandles);
            if (!created) {
                FamilyCatalog.markCreated(directory);
            }
            return new RocksStore(directory, options.families(), List.copyOf(allHandles), db, natives, lock);
        } catch (RocksDBException e) {
            // Only RocksDB.open throws it, so no database was opened.
            release(allHandles, null, natives, lock);
            throw RocksFailures.translate("opening rocksdb store " + directory, e);
        } catch (RuntimeException | Error e) {
            release(allHandles, db, natives, lock);
            throw e;
        }
    }

    /**
     * RocksDB refuses to open unless every column family it holds is named; the catalog already
     * refuses families it lists but the caller does not declare, this covers a catalog that is
     * missing or behind (a store not created by this backend).
     */
    private static void refuseUndeclaredRocksFamilies(Path directory, List<FamilySpec> declared)
            throws RocksDBException {
        List<byte[]> present;
        try (Options probe = new Options()) {
            present = RocksDB.listColumnFamilies(probe, directory.toString());
        }
        Set<String> names = new HashSet<>();
        declared.forEach(spec -> names.add(spec.name()));
        names.add(NativeOptions.DEFAULT_FAMILY);
        for (byte[] raw : present) {
            String name = new String(raw, StandardCharsets.UTF_8);
            if (!names.contains(name)) {
                throw new StoreException(StoreError.FAMILY_MISMATCH, "store " + directory + " holds family '"
                        + name + "' that is not declared");
            }
        }
    }

    private static StoreException notFound(Path directory) {
        return new StoreException(StoreError.NOT_FOUND, "no rocksdb store in " + directory
                + " and createIfMissing is false");
    }

    private static void release(List<ColumnFamilyHandle> handles, RocksDB db, NativeOptions natives,
            DirectoryLock lock) {
        handles.forEach(ColumnFamilyHandle::close);
        if (db != null) {
            db.close();
        }
        if (natives != null) {
            natives.close();
        }
        lock.close();
    }

    @Override
    public String backend() {
        return RocksStoreProvider.NAME;
    }

    @Override
    public Path directory() {
        return directory;
    }

    @Override
    public List<FamilySpec> families() {
        return families;
    }

    @Override
    public Optional<byte[]> get(String family, byte[] key) {
        gate.enter();
        try {
            ColumnFamilyHandle handle = handle(family, FamilyKind.PLAIN);
            return Optional.ofNullable(db.get(handle, checkKey(key)));
        } catch (RocksDBException e) {
            throw RocksFailures.translate("get from family '" + family + "'", e);
        } finally {
            gate.exit();
        }
    }

    /**
     * Under one snapshot when more than one key is read: from {@value #WALK_FROM_KEYS} keys on a
     * walk of one iterator over the keys in order ({@link RocksWalkRead}, which hands keys spread
     * apart to a {@code MultiGet}), else one RocksDB {@code MultiGet} ({@link RocksMultiGet}). A
     * corrupt entry throws either way, never reads as absent; a value longer than its slot of
     * {@value #VALUE_SLOT_BYTES} bytes is read again on its own, and must come from the same view.
     */
    @Override
    public List<Optional<byte[]>> multiGet(String family, List<byte[]> keys) {
        Objects.requireNonNull(keys, "keys");
        gate.enter();
        try {
            ColumnFamilyHandle handle = handle(family, FamilyKind.PLAIN);
            keys.forEach(RocksStore::checkKey);
            List<Optional<byte[]>> values = new ArrayList<>(keys.size());
            if (keys.size() >= WALK_FROM_KEYS) {
                byte[] largest = keys.stream().max(Bytes::compare).orElseThrow();
                byte[] bound = java.util.Arrays.copyOf(largest, largest.length + 1);
                try (Slice upper = new Slice(bound)) {
                    readFromOneSnapshot(keys.size(), upper, readOptions -> {
                        for (byte[] value : RocksWalkRead.read(db, readOptions, handle, keys, VALUE_SLOT_BYTES)) {
                            values.add(Optional.ofNullable(value));
                        }
                    });
                }
                return Collections.unmodifiableList(values);
            }
            readFromOneSnapshot(keys.size(), null, readOptions -> {
                for (byte[] value : RocksMultiGet.read(db, readOptions, handle, keys, VALUE_SLOT_BYTES)) {
                    values.add(Optional.ofNullable(value));
                }
            });
            return Collections.unmodifiableList(values);
        } catch (RocksDBException e) {
            throw RocksFailures.translate("multiGet from family '" + family + "'", e);
        } finally {
            gate.exit();
        }
    }

    @Override
    public long counter(String family, byte[] key) {
        gate.enter();
        try {
            ColumnFamilyHandle handle = handle(family, FamilyKind.COUNTER);
            return decodeCounter(db.get(handle, checkKey(key)));
        } catch (RocksDBException e) {
            throw RocksFailures.translate("counter read from family '" + family + "'", e);
        } finally {
            gate.exit();
        }
    }

    @Override
    public long[] counters(String family, List<byte[]> keys) {
        Objects.requireNonNull(keys, "keys");
        gate.enter();
        try {
            ColumnFamilyHandle handle = handle(family, FamilyKind.COUNTER);
            keys.forEach(RocksStore::checkKey);
            // One MultiGet reads every key at one sequence number, so no snapshot is taken: a
            // counter fits its slot, and a longer value, read again, fails to decode as corrupt.
            List<byte[]> values = RocksMultiGet.read(db, natives.defaultRead(), handle, keys, CounterCodec.LENGTH);
            long[] sums = new long[values.size()];
            for (int i = 0; i < sums.length; i++) {
                sums[i] = decodeCounter(values.get(i));
            }
            return sums;
        } catch (RocksDBException e) {
            throw RocksFailures.translate("counter read from family '" + family + "'", e);
        } finally {
            gate.exit();
        }
    }

    @Override
    public Scan scan(String family, KeyRange range, Direction direction) {
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(direction, "direction");
        gate.enter();
        try {
            ColumnFamilyHandle handle = handles.get(Objects.requireNonNull(family, "family"));
            if (handle == null) {
                throw unknownFamily(family);
            }
            RocksScan scan = RocksScan.open(db, handle, family, range, direction, gate, openScans::remove);
            openScans.add(scan);
            return scan;
        } finally {
            gate.exit();
        }
    }

    /** One iterator for every seek of the cursor (see {@link RocksCursor}). */
    @Override
    public Cursor cursor(String family) {
        gate.enter();
        try {
            ColumnFamilyHandle handle = handles.get(Objects.requireNonNull(family, "family"));
            if (handle == null) {
                throw unknownFamily(family);
            }
            RocksCursor cursor = new RocksCursor(db, handle, family, gate, openCursors::remove);
            openCursors.add(cursor);
            return cursor;
        } finally {
            gate.exit();
        }
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(durability, "durability");
        gate.enter();
        try {
            BatchValidator.validate(batch, kinds);
            if (batch.isEmpty()) {
                if (durability == Durability.SYNC) {
                    db.syncWal();
                }
                return;
            }
            try (org.rocksdb.WriteBatch rocksBatch = toRocksBatch(batch)) {
                db.write(durability == Durability.SYNC ? natives.syncWrite() : natives.asyncWrite(),
                        rocksBatch);
            }
        } catch (RocksDBException e) {
            throw RocksFailures.translate("commit of " + batch, e);
        } finally {
            gate.exit();
        }
    }

    /** The batch as RocksDB ops; only called on a validated batch. */
    private org.rocksdb.WriteBatch toRocksBatch(WriteBatch batch) throws RocksDBException {
        org.rocksdb.WriteBatch rocksBatch = new org.rocksdb.WriteBatch();
        try {
            for (WriteBatch.Op op : batch.ops()) {
                ColumnFamilyHandle handle = handles.get(op.family());
                if (op instanceof WriteBatch.Put put) {
                    rocksBatch.put(handle, put.key(), put.value());
                } else if (op instanceof WriteBatch.Delete delete) {
                    rocksBatch.delete(handle, delete.key());
                } else if (op instanceof WriteBatch.DeleteRange range) {
                    int order = Bytes.compare(range.from(), range.to());
                    if (order > 0) {
                        // WriteBatch refuses this on add; checked again because RocksDB turns it into a sticky error.
                        throw new StoreException(StoreError.INVALID_ARGUMENT, "inverted deleteRange in " + batch);
                    }
                    if (order < 0) {
                        rocksBatch.deleteRange(handle, range.from(), range.to());
                    }
                } else if (op instanceof WriteBatch.Merge merge) {
                    rocksBatch.merge(handle, merge.key(), CounterCodec.encode(merge.delta()));
                }
            }
            return rocksBatch;
        } catch (RocksDBException | RuntimeException e) {
            rocksBatch.close();
            throw e;
        }
    }

    /**
     * The live SST files of every family ({@code rocksdb.total-sst-files-size}) plus the memtables
     * not yet flushed ({@code rocksdb.cur-size-all-mem-tables}, which the WAL holds on disk), each
     * summed over the families: two property reads, no file system call. Files of obsolete SSTs
     * a compaction has not deleted yet, old WAL files and the info logs are not counted.
     */
    @Override
    public long sizeBytes() {
        gate.enter();
        try {
            return db.getAggregatedLongProperty("rocksdb.total-sst-files-size")
                    + db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables");
        } catch (RocksDBException e) {
            throw RocksFailures.translate("size of " + directory, e);
        } finally {
            gate.exit();
        }
    }

    /**
     * A RocksDB checkpoint (hard links to the live SST files after a memtable flush, plus the
     * WAL tail), then a copy of the family catalog, so the copy opens as a store.
     */
    @Override
    public void checkpoint(Path target) {
        Objects.requireNonNull(target, "target");
        gate.enter();
        try {
            if (Files.exists(target)) {
                throw new StoreException(StoreError.INVALID_ARGUMENT, "checkpoint target " + target + " exists");
            }
            Path parent = target.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (Checkpoint checkpoint = Checkpoint.create(db)) {
                checkpoint.createCheckpoint(target.toString());
            }
            FamilyCatalog.copy(directory, target);
        } catch (RocksDBException e) {
            throw RocksFailures.translate("checkpoint of " + directory + " into " + target, e);
        } catch (IOException e) {
            throw new StoreException(StoreError.IO, "cannot create the parent of " + target + ": " + e.getMessage(), e);
        } finally {
            gate.exit();
        }
    }

    /**
     * Waits for native calls in progress, frees open scans, fsyncs the WAL and closes RocksDB and
     * every native option, then releases the directory lock. Idempotent. If the final WAL sync
     * fails everything is still released, then the failure is thrown.
     */
    @Override
    public void close() {
        StoreException[] failure = new StoreException[1];
        gate.close(() -> {
            for (RocksScan scan : List.copyOf(openScans)) {
                scan.invalidate();
            }
            openScans.clear();
            for (RocksCursor cursor : List.copyOf(openCursors)) {
                cursor.invalidate();
            }
            openCursors.clear();
            try {
                db.syncWal();
            } catch (RocksDBException e) {
                failure[0] = RocksFailures.translate("final WAL sync of " + directory, e);
            }
            allHandles.forEach(ColumnFamilyHandle::close);
            try {
                db.closeE();
            } catch (RocksDBException e) {
                if (failure[0] == null) {
                    failure[0] = RocksFailures.translate("closing " + directory, e);
                }
            } finally {
                natives.close();
                lock.close();
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    /** Background errors and recoveries of the database (for full-disk tests). */
    ErrorRecoveryWatch recoveryWatch() {
        return natives.recoveryWatch();
    }

    /** Scans and cursors whose natives are still held (for leak tests). */
    int openScanCount() {
        return openScans.size() + openCursors.size();
    }

    private interface SnapshotRead {
        void read(ReadOptions readOptions) throws RocksDBException;
    }

    /**
     * Runs {@code read} under a snapshot when it reads more than one key, with {@code upper} (if any) as the iterate
     * upper bound.
     */
    private void readFromOneSnapshot(int keys, Slice upper, SnapshotRead read) throws RocksDBException {
        if (keys <= 1) {
            read.read(natives.defaultRead());
            return;
        }
        Snapshot snapshot = db.getSnapshot();
        try (ReadOptions readOptions = new ReadOptions()) {
            readOptions.setSnapshot(snapshot);
            if (upper != null) {
                readOptions.setIterateUpperBound(upper);
            }
            read.read(readOptions);
        } finally {
            db.releaseSnapshot(snapshot);
            snapshot.close();
        }
    }

    private ColumnFamilyHandle handle(String family, FamilyKind kind) {
        Objects.requireNonNull(family, "family");
        BatchValidator.requireKind(kinds, family, kind);
        return handles.get(family);
    }

    private UnknownFamilyException unknownFamily(String family) {
        return new UnknownFamilyException("unknown family '" + family + "'; declared: " + kinds.keySet());
    }

    private static byte[] checkKey(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length == 0) {
            throw new StoreException(StoreError.INVALID_ARGUMENT, "empty key");
        }
        return key;
    }

    private static long decodeCounter(byte[] value) {
        return value == null ? 0 : CounterCodec.decode(value);
    }

    @Override
    public String toString() {
        return "RocksStore[" + directory + ", " + kinds + "]";
    }
}
