package io.ankusa.tests.upgrade;

import io.ankusa.store.Store;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Waits until a RocksDB store has no flush or compaction pending or running, as a store that has
 * been running for a while has none: RocksDB's properties {@code rocksdb.compaction-pending} and
 * {@code rocksdb.mem-table-flush-pending} (per column family), {@code rocksdb.num-running-compactions}
 * and {@code rocksdb.num-running-flushes}. It forces nothing: RocksDB compacts what its own
 * triggers ask for (level 0 down to its file-count trigger, levels down to their targets), no more,
 * so the store is not made tidier than a settled one (a full compaction would be).
 *
 * <p>The migration bench runs it on the format-2 store it has just written: that writer fills
 * level 0 faster than RocksDB compacts it and closes the store with compactions pending, which the
 * next open would run inside the migration's timed window. RocksDB's handle is read from the store
 * by reflection, as ankusa-bench's {@code io.ankusa.bench.soak.NativeMemoryProbe} does: the backend
 * exports nothing, and this is a test program on the class path, not an API. On another backend it waits for nothing.
 */
final class SettledCompactions {

    private static final long POLL_NANOS = Duration.ofMillis(20).toNanos();

    private SettledCompactions() {
    }

    /**
     * What the wait saw.
     *
     * @param waitedNanos    how long it waited
     * @param level0Before   level-0 table files over every column family when it started
     * @param level0After    the same when it returned
     */
    record Settled(long waitedNanos, long level0Before, long level0After) {
    }

    /**
     * Returns once {@code store} has no flush or compaction pending or running (at once on a
     * backend other than RocksDB).
     *
     * @throws IllegalStateException when that has not happened within {@code timeout}
     */
    static Settled await(Store store, Duration timeout) {
        if (!store.getClass().getName().equals("io.ankusa.store.rocksdb.RocksStore")) {
            return new Settled(0, 0, 0);
        }
        RocksDB db;
        Map<String, ColumnFamilyHandle> handles;
        try {
            Field dbField = store.getClass().getDeclaredField("db");
            dbField.setAccessible(true);
            Field handlesField = store.getClass().getDeclaredField("handles");
            handlesField.setAccessible(true);
            db = (RocksDB) dbField.get(store);
            @SuppressWarnings("unchecked")
            Map<String, ColumnFamilyHandle> h = (Map<String, ColumnFamilyHandle>) handlesField.get(store);
            handles = h;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach RocksDB in " + store, e);
        }
        long start = System.nanoTime();
        try {
            long level0Before = level0Files(db, handles);
            while (busy(db, handles)) {
                if (System.nanoTime() - start > timeout.toNanos()) {
                    throw new IllegalStateException("RocksDB's compactions in " + store.directory()
                            + " did not settle within " + timeout);
                }
                LockSupport.parkNanos(POLL_NANOS);
            }
            return new Settled(System.nanoTime() - start, level0Before, level0Files(db, handles));
        } catch (RocksDBException e) {
            throw new IllegalStateException("reading RocksDB's compaction properties", e);
        }
    }

    private static boolean busy(RocksDB db, Map<String, ColumnFamilyHandle> handles) throws RocksDBException {
        if (db.getLongProperty("rocksdb.num-running-compactions") > 0
                || db.getLongProperty("rocksdb.num-running-flushes") > 0) {
            return true;
        }
        for (ColumnFamilyHandle handle : handles.values()) {
            if (db.getLongProperty(handle, "rocksdb.compaction-pending") > 0
                    || db.getLongProperty(handle, "rocksdb.mem-table-flush-pending") > 0) {
                return true;
            }
        }
        return false;
    }

    private static long level0Files(RocksDB db, Map<String, ColumnFamilyHandle> handles) throws RocksDBException {
        long sum = 0;
        for (ColumnFamilyHandle handle : handles.values()) {
            sum += Long.parseLong(db.getProperty(handle, "rocksdb.num-files-at-level0"));
        }
        return sum;
    }
}
