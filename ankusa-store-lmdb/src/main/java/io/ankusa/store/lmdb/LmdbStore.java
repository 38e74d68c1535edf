package io.ankusa.store.lmdb;

import io.ankusa.store.Cursor;
import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreCorruptionException;
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
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.lmdbjava.CopyFlags;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.EnvInfo;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

/**
 * A {@link Store} on one LMDB environment: one named database per family, {@code byte[]}
 * buffers ({@link ScratchByteArrayProxy}: lmdbjava's {@code ByteArrayProxy} without a native
 * allocation per key and value; no JVM flag needed).
 *
 * <h2>What it guarantees, and why</h2>
 *
 * <p><b>Atomic batches.</b> A batch is applied inside one LMDB write transaction. LMDB's
 * copy-on-write B-tree publishes a transaction by writing its meta page last; a reader or a restart
 * sees the old root or the new one, never a mix. The transaction runs wholly on one thread (LMDB
 * binds a write transaction to its thread) under {@code commitLock} (LMDB has one writer; the lock
 * makes committers queue in Java rather than on LMDB's mutex, and orders them with map growth and
 * close). <b>Committers share transactions:</b> a batch first joins a queue of waiting batches, and
 * whoever takes the lock next writes every waiting batch, in arrival order, in one transaction (each
 * batch whole or absent, as the group is; a later batch sees the earlier ones' writes, as it would
 * one commit later). Committers that arrive while a transaction is being written so share the next
 * one and its {@code fdatasync}. When a shared transaction fails, each of its batches is written
 * again alone, so that a bad batch fails only its own caller.
 *
 * <p><b>Exact merges.</b> A merge reads the counter, adds and puts inside that one writer's
 * transaction ({@link BatchApplier}); nothing can interleave.
 *
 * <p><b>Durability.</b> The environment is opened with {@code MDB_NOMETASYNC}: at each commit LMDB
 * writes the data pages, {@code fdatasync}s them, then writes the meta page without a sync. A
 * {@link Durability#SYNC} commit then calls {@code mdb_env_sync(force)}, so the meta page is on
 * disk too when {@code commit} returns — <b>after</b> the commit lock is released, under a lock of
 * its own ({@code syncLock}), so that the next writers do not wait for it. Transactions are numbered;
 * a sync covers every transaction committed before it started, and a {@code SYNC} commit returns
 * once a sync covering its transaction has finished: committers queued behind one sync usually
 * find themselves covered by it and return without one of their own (group commit). A resize and
 * {@link #close()} take {@code syncLock} too ({@code mdb_env_sync} reads the meta pages in the map).
 * An {@link Durability#ASYNC} commit is in the OS page cache
 * (it survives the process dying) and its meta page reaches the disk with the next commit's sync,
 * an explicit sync, or {@link #close()}; a power loss before that undoes it whole. We do not use
 * {@code MDB_NOSYNC}: it drops the sync <em>between</em> data and meta pages too, and LMDB states
 * that a system crash can then corrupt the store unless the filesystem keeps write order — and a
 * kernel writeback may well write the meta page (the start of the file) before the data pages.
 *
 * <p><b>Map growth.</b> The map starts at {@code lmdb.mapSize}. When a transaction hits
 * {@code MDB_MAP_FULL} it is aborted (nothing applied), the map is doubled and the whole batch is
 * replayed, as often as needed. After each commit the map is doubled ahead of need when more than
 * half of it is in use and no read transaction is live. LMDB resizes by remapping the file, which
 * is allowed only while no transaction of the process is live: {@link ReaderGate} counts read
 * transactions, holds new ones back during a resize and gives up after {@code lmdb.resizeWaitMillis}
 * (a scan kept open across the commit, even by the committing thread, blocks a resize); the commit
 * then fails with nothing written. If the remap itself fails (address space exhausted), LMDB is
 * left without a map; the store then refuses every read and write until it is reopened.
 *
 * <p><b>Reads and close.</b> The environment has {@code MDB_NOTLS}: a read transaction is not tied
 * to its thread, so one thread may hold several scans, and a scan may be iterated and closed from
 * any thread. Each read runs in its own read transaction between {@link ReaderGate#enterRead} and
 * {@link ReaderGate#exitRead}. {@link #close()} refuses new reads, invalidates open scans (their
 * transactions end under the scan's monitor, never under a running step), waits for the commit and
 * the short reads in flight, syncs, and only then closes the environment: a read racing close gets
 * a {@link StoreClosedException}, never a pointer into an unmapped file.
 */
final class LmdbStore implements Store {

    /** LMDB's key size limit with its default page size ({@code mdb_env_get_maxkeysize}). */
    static final int MAX_KEY_BYTES = 511;

    /** LMDB's data file in the store directory. */
    static final String DATA_FILE = "data.mdb";

    private final Path directory;
    private final List<FamilySpec> specs;
    private final Map<String, FamilyKind> kinds;
    private final Map<String, Family> families;
    private final LmdbSettings settings;
    private final DirectoryLock directoryLock;
    private final Env<byte[]> env;
    private final long pageSize;
    private final BatchApplier applier;
    private final ReaderGate gate;
    private final ReentrantLock commitLock = new ReentrantLock();
    /** Held by a sync, a resize (under the commit lock) and close: a sync never runs during a remap or after close. */
    private final ReentrantLock syncLock = new ReentrantLock();
    /** Batches waiting for the next write transaction ({@link #write}). */
    private final ConcurrentLinkedQueue<PendingWrite> waiting = new ConcurrentLinkedQueue<>();
    /**
     * Number of the last write transaction committed (its meta page written, maybe not synced); under the commit lock.
     */
    private final AtomicLong committed = new AtomicLong();
    /** Every write transaction up to this number is on disk; -1 until the first sync (a previous process's writes). */
    private volatile long synced = -1;
    /** Set by close once the environment is closed; under the sync lock. */
    private boolean environmentClosed;
    private final Set<LmdbScan> openScans = ConcurrentHashMap.newKeySet();
    private final Set<LmdbCursor> openCursors = ConcurrentHashMap.newKeySet();
    private volatile String writeRefusal;

    private LmdbStore(StoreOptions options, LmdbSettings settings, DirectoryLock directoryLock, Env<byte[]> env,
            Map<String, Family> families) {
        this.directory = options.directory();
        this.specs = options.families();
        this.settings = settings;
        this.directoryLock = directoryLock;
        this.env = env;
        this.families = families;
        Map<String, FamilyKind> kindsByName = new LinkedHashMap<>();
        families.forEach((name, family) -> kindsByName.put(name, family.kind()));
        this.kinds = Collections.unmodifiableMap(kindsByName);
        this.pageSize = env.stat().pageSize;
        this.applier = new BatchApplier(families);
        this.gate = new ReaderGate(directory.toString());
    }

    /**
     * Opens or creates the store of {@code options}: settings first, then the directory lock, the
     * family catalog (which decides whether the directory holds a store), the data file's meta
     * pages, and only then the environment. A store the catalog says was created must still have
     * its data file, intact up to the last page its newest meta page names: LMDB would create a
     * missing one empty, and fault (SIGBUS, killing the JVM) on a truncated one.
     */
    static LmdbStore open(StoreOptions options) {
        LmdbSettings settings = LmdbSettings.parse(options.settings());
        Path directory = options.directory();
        if (!options.createIfMissing() && FamilyCatalog.inspect(directory).filter(FamilyCatalog::created).isEmpty()) {
            throw new StoreException(StoreError.NOT_FOUND,
                    "no LMDB store in " + directory + " and createIfMissing is false");
        }
        DirectoryLock lock = DirectoryLock.acquire(directory);
        Env<byte[]> env = null;
        try {
            boolean created = FamilyCatalog.reconcile(directory, LmdbStoreProvider.NAME, options.families(),
                    options.createIfMissing());
            Path data = directory.resolve(DATA_FILE);
            if (created && !Files.isRegularFile(data)) {
                throw new StoreCorruptionException("the LMDB data file " + data + " is missing, but the family"
                        + " catalog says the store was created: refusing to start it empty. Restore the store"
                        + " directory from a backup or checkpoint");
            }
            if (Files.exists(data)) {
                LmdbDataFile.requireIntact(data);
            }
            env = Env.create(ScratchByteArrayProxy.PROXY)
                    .setMapSize(settings.mapSize())
                    .setMaxDbs(options.families().size())
                    .setMaxReaders(settings.maxReaders())
                    .open(directory.toFile(), EnvFlags.MDB_NOMETASYNC, EnvFlags.MDB_NOTLS);
            LmdbStore store = new LmdbStore(options, settings, lock, env, openFamilies(env, options.families()));
            if (!created) {
                env.sync(true);
                FamilyCatalog.markCreated(directory);
            }
            store.growAheadIfHalfFull();
            if (store.writeRefusal != null) {
                throw new StoreException(StoreError.IO, "open LMDB store " + directory + ": " + store.writeRefusal);
            }
            return store;
        } catch (LmdbException e) {
            abandon(env, lock);
            throw LmdbErrors.translate(e, "open LMDB store " + directory, directory);
        } catch (LinkageError e) {
            abandon(env, lock);
            throw new StoreException(StoreError.IO, "cannot load the LMDB native library: " + e, e);
        } catch (RuntimeException | Error e) {
            abandon(env, lock);
            throw e;
        }
    }

    /**
     * Opens (creating) one named database per family in one write transaction. Always with
     * {@code MDB_UNSIGNEDKEY}: LMDB itself orders keys by {@code memcmp} (unsigned) either way, but
     * lmdbjava's own range checks compare signed bytes without it.
     */
    private static Map<String, Family> openFamilies(Env<byte[]> env, List<FamilySpec> specs) {
        Map<String, Family> families = new LinkedHashMap<>();
        try (Txn<byte[]> txn = env.txnWrite()) {
            for (FamilySpec spec : specs) {
                families.put(spec.name(), new Family(spec.name(), spec.kind(), env.openDbi(txn,
                        spec.name().getBytes(StandardCharsets.UTF_8), null, false,
                        DbiFlags.MDB_CREATE, DbiFlags.MDB_UNSIGNEDKEY)));
            }
            txn.commit();
        }
        return Collections.unmodifiableMap(families);
    }

    private static void abandon(Env<byte[]> env, DirectoryLock lock) {
        try {
            if (env != null) {
                env.close();
            }
        } catch (LmdbException ignored) {
            // the open already failed; that failure is the one to report
        } finally {
            lock.close();
        }
    }

    @Override
    public String backend() {
        return LmdbStoreProvider.NAME;
    }

    @Override
    public Path directory() {
        return directory;
    }

    @Override
    public List<FamilySpec> families() {
        return specs;
    }

    @Override
    public Optional<byte[]> get(String family, byte[] key) {
        Family f = family(family, FamilyKind.PLAIN);
        requireKey(key);
        return read("get from family '" + family + "'", txn -> Optional.ofNullable(f.dbi().get(txn, key)));
    }

    @Override
    public List<Optional<byte[]>> multiGet(String family, List<byte[]> keys) {
        Family f = family(family, FamilyKind.PLAIN);
        keys.forEach(LmdbStore::requireKey);
        return read("multiGet from family '" + family + "'", txn -> {
            List<Optional<byte[]>> values = new ArrayList<>(keys.size());
            for (byte[] key : keys) {
                values.add(Optional.ofNullable(f.dbi().get(txn, key)));
            }
            return Collections.unmodifiableList(values);
        });
    }

    @Override
    public long counter(String family, byte[] key) {
        Family f = family(family, FamilyKind.COUNTER);
        requireKey(key);
        return read("counter from family '" + family + "'", txn -> counterValue(f.dbi().get(txn, key)));
    }

    @Override
    public long[] counters(String family, List<byte[]> keys) {
        Family f = family(family, FamilyKind.COUNTER);
        keys.forEach(LmdbStore::requireKey);
        return read("counters from family '" + family + "'", txn -> {
            long[] values = new long[keys.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = counterValue(f.dbi().get(txn, keys.get(i)));
            }
            return values;
        });
    }

    @Override
    public Scan scan(String family, KeyRange range, Direction direction) {
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(direction, "direction");
        Family f = declared(family);
        gate.enterRead();
        LmdbScan scan;
        try {
            scan = LmdbScan.open(env, f, range, direction, this::scanReleased);
        } catch (LmdbException e) {
            throw LmdbErrors.translate(e, "scan of family '" + family + "'");
        }
        openScans.add(scan);
        if (gate.isClosed()) { // close() ran between enterRead and add, so it did not see this scan
            scan.invalidate();
            throw new StoreClosedException("store " + directory + " is closed");
        }
        return scan;
    }

    /** The declared family {@code family}, for a scan or a cursor over it. */
    private Family declared(String family) {
        Family f = families.get(Objects.requireNonNull(family, "family"));
        if (f == null) {
            throw new UnknownFamilyException("unknown family '" + family + "'; declared: " + kinds.keySet());
        }
        return f;
    }

    private void scanReleased(LmdbScan scan) {
        openScans.remove(scan);
        gate.exitRead();
    }

    /** One read transaction and one LMDB cursor for every seek (see {@link LmdbCursor}). */
    @Override
    public Cursor cursor(String family) {
        Family f = declared(family);
        gate.enterRead();
        LmdbCursor cursor;
        try {
            cursor = LmdbCursor.open(env, f, this::cursorReleased);
        } catch (LmdbException e) {
            throw LmdbErrors.translate(e, "cursor over family '" + family + "'");
        }
        openCursors.add(cursor);
        if (gate.isClosed()) { // close() ran between enterRead and add, so it did not see this cursor
            cursor.invalidate();
            throw new StoreClosedException("store " + directory + " is closed");
        }
        return cursor;
    }

    private void cursorReleased(LmdbCursor cursor) {
        openCursors.remove(cursor);
        gate.exitRead();
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(durability, "durability");
        BatchValidator.validate(batch, kinds);
        long transaction = batch.isEmpty() ? requireWritable() : write(batch);
        if (durability == Durability.SYNC) {
            syncThrough(transaction);
        }
    }

    /** For an empty batch: the store must take writes; returns the last write transaction committed. */
    private long requireWritable() {
        if (gate.isClosed()) {
            throw new StoreClosedException("store " + directory + " is closed");
        }
        if (writeRefusal != null) {
            throw refusal();
        }
        return committed.get();
    }

    private StoreException refusal() {
        return new StoreException(StoreError.IO, "store " + directory + " refuses writes (" + writeRefusal
                + "); close and reopen it");
    }

    /**
     * Writes {@code batch} without a sync of the meta page; returns the number of the write
     * transaction that applied it. The batch waits in {@link #waiting}; whoever takes the commit lock
     * next writes every waiting batch in one transaction, so committers that arrive while a
     * transaction is being written share the next one (and its {@code fdatasync}).
     */
    private long write(WriteBatch batch) {
        PendingWrite mine = new PendingWrite(batch);
        waiting.add(mine);
        commitLock.lock();
        try {
            if (!mine.done) {
                writeWaiting();
            }
            if (!mine.done) { // unreachable: writeWaiting takes every waiting batch, this one included
                throw new IllegalStateException("batch left unwritten by " + this);
            }
            if (mine.failure != null) {
                throw mine.failure;
            }
            return mine.transaction;
        } finally {
            commitLock.unlock();
        }
    }

    /**
     * Writes every waiting batch, in arrival order, in one write transaction; the caller holds the
     * commit lock. When that transaction fails, each batch is written again in a transaction of its
     * own, so that one bad batch fails alone and every caller gets its own answer.
     */
    private void writeWaiting() {
        List<PendingWrite> group = new ArrayList<>();
        for (PendingWrite next = waiting.poll(); next != null; next = waiting.poll()) {
            group.add(next);
        }
        try {
            if (gate.isClosed()) {
                group.forEach(w -> w.failed(new StoreClosedException("store " + directory + " is closed")));
                return;
            }
            if (writeRefusal != null) {
                group.forEach(w -> w.failed(refusal()));
                return;
            }
            try {
                writeGrowingMap(group);
                long number = committed.incrementAndGet();
                group.forEach(w -> w.written(number));
            } catch (LmdbException e) {
                if (group.size() == 1) {
                    group.get(0).failed(LmdbErrors.translate(e, "commit to " + directory, directory));
                } else {
                    writeOneByOne(group);
                }
            } catch (RuntimeException e) {
                if (group.size() == 1) {
                    group.get(0).failed(asStoreException(e));
                } else {
                    writeOneByOne(group);
                }
            }
            try {
                growAheadIfHalfFull();
            } catch (LmdbException e) {
                // the batches are written; the next commit meets the same failure and reports it
            }
        } catch (RuntimeException | Error e) {
            group.stream().filter(w -> !w.done).forEach(w -> w.failed(new StoreException(StoreError.IO,
                    "commit to " + directory + " failed: " + e, e)));
            throw e;
        }
    }

    private StoreException asStoreException(RuntimeException e) {
        return e instanceof StoreException known ? known
                : new StoreException(StoreError.IO, "commit to " + directory + " failed: " + e, e);
    }

    /** After a shared transaction failed: each batch in a transaction of its own, each with its own answer. */
    private void writeOneByOne(List<PendingWrite> group) {
        for (PendingWrite alone : group) {
            try {
                writeGrowingMap(List.of(alone));
                alone.written(committed.incrementAndGet());
            } catch (LmdbException e) {
                alone.failed(LmdbErrors.translate(e, "commit to " + directory, directory));
            } catch (RuntimeException e) {
                alone.failed(asStoreException(e));
            }
        }
    }

    /**
     * Makes every write transaction up to {@code transaction} durable: one {@code mdb_env_sync} (the
     * meta page, and any data page not yet on disk) outside the commit lock, so the next writers
     * do not wait for it. Group commit: a sync covers every transaction committed before it started,
     * so callers that queued behind a sync usually find themselves covered and return without one.
     */
    private void syncThrough(long transaction) {
        if (synced >= transaction) {
            return;
        }
        syncLock.lock();
        try {
            if (synced >= transaction) {
                return;
            }
            if (environmentClosed) {
                throw new StoreClosedException("store " + directory + " is closed; a batch applied before the close"
                        + " may not be durable (the close's own sync failed)");
            }
            if (writeRefusal != null) {
                throw new StoreException(StoreError.IO, "store " + directory + " refuses writes (" + writeRefusal
                        + "); the batch is applied but may not be durable; close and reopen it");
            }
            long upTo = committed.get();
            sync("the batch is applied but may not be durable");
            synced = upTo;
        } finally {
            syncLock.unlock();
        }
    }

    /**
     * One write transaction for {@code group}; on {@code MDB_MAP_FULL} it is aborted, the map doubled, the group
     * replayed.
     */
    private void writeGrowingMap(List<PendingWrite> group) {
        while (true) {
            try (Txn<byte[]> txn = env.txnWrite()) {
                for (PendingWrite w : group) {
                    applier.apply(txn, w.batch);
                }
                txn.commit();
                return;
            } catch (Env.MapFullException full) {
                growMap(full);
            }
        }
    }

    private void growMap(Env.MapFullException full) {
        long size = env.info().mapSize;
        if (size > Long.MAX_VALUE / 2) { // unreachable in practice: LmdbSettings caps the start at 2^60
            throw new StoreException(StoreError.IO, "the LMDB map of " + directory + " cannot grow past " + size
                    + " bytes; nothing was written", full);
        }
        syncLock.lock(); // mdb_env_sync reads the meta pages in the map: never during a remap
        try {
            if (!gate.enterResize(settings.resizeWait())) {
                throw new StoreException(StoreError.IO, "commit to " + directory + ": the LMDB map (" + size
                        + " bytes) is full and cannot grow while " + gate.readers() + " reads or scans stay open"
                        + " (waited up to " + settings.resizeWait().toMillis() + " ms); nothing was written."
                        + " Close scans before committing, or raise " + LmdbSettings.MAP_SIZE, full);
            }
            try {
                resize(size * 2);
            } finally {
                gate.exitResize();
            }
        } finally {
            syncLock.unlock();
        }
    }

    /**
     * Doubles the map ahead of need when more than half is in use and no read is live right now.
     * A failure here does not fail the commit that already applied; {@link #resize} has taken the
     * store out of service and the next call reports it.
     */
    private void growAheadIfHalfFull() {
        EnvInfo info = env.info();
        long used = (info.lastPageNumber + 1) * pageSize;
        long target = info.mapSize;
        while (used > target / 2 && target <= Long.MAX_VALUE / 2) {
            target *= 2;
        }
        if (target > info.mapSize && syncLock.tryLock()) { // a sync running: the next commit grows it
            try {
                if (gate.tryEnterResize()) {
                    try {
                        resize(target);
                    } catch (StoreException ignored) {
                        // reported by every later read and commit
                    } finally {
                        gate.exitResize();
                    }
                }
            } finally {
                syncLock.unlock();
            }
        }
    }

    /**
     * Resizes the map; the caller holds the gate for a resize. LMDB unmaps before it maps the new
     * size, so when that fails the environment has no map at all and any read would fault: the
     * store then refuses every read and write until it is reopened.
     */
    private void resize(long target) {
        try {
            env.setMapSize(target);
        } catch (LmdbException e) {
            String reason = "growing the LMDB map to " + target + " bytes failed: " + e.getMessage();
            writeRefusal = reason;
            gate.fail(reason);
            throw new StoreException(StoreError.IO, "store " + directory + ": " + reason
                    + "; nothing was written; close and reopen it (is the address space limited, ulimit -v?)", e);
        }
    }

    /**
     * Forces every committed transaction to disk. A failed sync leaves the page cache in an unknown
     * state (the kernel may drop the dirty pages it could not write), so the store refuses later
     * writes until it is reopened.
     */
    private void sync(String whatIfFailed) {
        try {
            env.sync(true);
        } catch (LmdbException e) {
            writeRefusal = "a sync failed: " + e.getMessage();
            StoreException cause = LmdbErrors.translate(e, "sync", directory);
            throw new StoreException(cause.reason() == StoreError.NO_SPACE ? StoreError.NO_SPACE : StoreError.IO,
                    "sync of " + directory + " failed; " + whatIfFailed + ": " + cause.getMessage(), e);
        }
    }

    /**
     * The pages in use up to the highest page ever written ({@code (last page + 1) x page size},
     * one environment read): the part of {@code data.mdb} that holds data. LMDB reuses freed pages
     * and never shrinks the file, so this is the store's high-water mark, not the bytes of live
     * data; the map size beyond it is address space, not disk.
     */
    @Override
    public long sizeBytes() {
        gate.enterRead();
        try {
            return (env.info().lastPageNumber + 1) * pageSize;
        } finally {
            gate.exitRead();
        }
    }

    @Override
    public void checkpoint(Path target) {
        Objects.requireNonNull(target, "target");
        if (Files.exists(target)) {
            throw new StoreException(StoreError.INVALID_ARGUMENT, "checkpoint target " + target + " already exists");
        }
        gate.enterRead();
        try {
            Files.createDirectories(target);
            env.copy(target.toFile(), CopyFlags.MDB_CP_COMPACT);
            try (FileChannel data = FileChannel.open(target.resolve(DATA_FILE), StandardOpenOption.WRITE)) {
                data.force(true);
            }
            FamilyCatalog.copy(directory, target);
        } catch (IOException e) {
            deletePartialCheckpoint(target);
            throw new StoreException(StoreError.IO, "checkpoint of " + directory + " into " + target + " failed: "
                    + e.getMessage(), e);
        } catch (LmdbException e) {
            deletePartialCheckpoint(target);
            throw LmdbErrors.translate(e, "checkpoint of " + directory + " into " + target);
        } catch (RuntimeException e) {
            deletePartialCheckpoint(target);
            throw e;
        } finally {
            gate.exitRead();
        }
    }

    private static void deletePartialCheckpoint(Path target) {
        try {
            Files.deleteIfExists(target.resolve(DATA_FILE));
            Files.deleteIfExists(target.resolve(FamilyCatalog.FILE_NAME));
            Files.deleteIfExists(target.resolve(FamilyCatalog.FILE_NAME + ".tmp"));
            Files.deleteIfExists(target);
        } catch (IOException ignored) {
            // best effort; the failure being reported is the checkpoint's
        }
    }

    @Override
    public void close() {
        if (!gate.close()) {
            return;
        }
        for (LmdbScan scan : openScans) {
            try {
                scan.invalidate();
            } catch (LmdbException ignored) {
                // the scan's transaction slot is released even so; closing goes on
            }
        }
        for (LmdbCursor cursor : openCursors) {
            try {
                cursor.invalidate();
            } catch (LmdbException ignored) {
                // the cursor's transaction slot is released even so; closing goes on
            }
        }
        commitLock.lock();
        syncLock.lock();
        try {
            gate.awaitNoReaders();
            try {
                long upTo = committed.get();
                sync("writes committed with ASYNC may be lost");
                synced = upTo;
            } finally {
                environmentClosed = true;
                env.close();
            }
        } catch (LmdbException e) {
            throw LmdbErrors.translate(e, "close " + directory);
        } finally {
            syncLock.unlock();
            commitLock.unlock();
            directoryLock.close();
        }
    }

    @Override
    public String toString() {
        return "LmdbStore[" + directory + "]";
    }

    /** Refuses a key LMDB cannot hold: empty, or longer than {@value #MAX_KEY_BYTES} bytes. */
    static void requireKey(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length == 0 || key.length > MAX_KEY_BYTES) {
            throw new StoreException(StoreError.INVALID_ARGUMENT, "key of " + key.length
                    + " bytes: LMDB keys are 1 to " + MAX_KEY_BYTES + " bytes");
        }
    }

    private static long counterValue(byte[] stored) {
        return stored == null ? 0 : CounterCodec.decode(stored);
    }

    private Family family(String name, FamilyKind kind) {
        BatchValidator.requireKind(kinds, Objects.requireNonNull(name, "family"), kind);
        return families.get(name);
    }

    /** Runs {@code body} in a fresh read transaction (one consistent view) between the gate's enter and exit. */
    private <R> R read(String action, Function<Txn<byte[]>, R> body) {
        gate.enterRead();
        try (Txn<byte[]> txn = env.txnRead()) {
            return body.apply(txn);
        } catch (LmdbException e) {
            throw LmdbErrors.translate(e, action);
        } finally {
            gate.exitRead();
        }
    }
}
