package io.ankusa.store.rocksdb;

import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code rocksdb} store backend.
 *
 * <p>One RocksDB column family per declared family, same name; RocksDB's native 64-bit add merge
 * operator on counter families; a {@code SYNC} commit fsyncs the write-ahead log (which also
 * hardens every earlier unsynced commit), an {@code ASYNC} one may be lost by a power loss, but
 * only whole and only together with every later commit. The full crash contract is on the store
 * class of this package.
 *
 * <p>Settings ({@link StoreOptions#settings()}; any other key is refused):
 * <table>
 *   <caption>RocksDB backend settings</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code rocksdb.blockCacheBytes}</td><td>67108864 (64 MiB)</td>
 *       <td>one LRU block cache shared by every family</td></tr>
 *   <tr><td>{@code rocksdb.counterMaxSuccessiveMerges}</td><td>64</td>
 *       <td>counter families: after this many merge operands in a row on one row in the memtable, the
 *       next merge folds them into a value (when all it needs is in memory), so a counter read stays
 *       cheap under constant merging; 0 turns it off</td></tr>
 *   <tr><td>{@code rocksdb.maxBackgroundJobs}</td><td>2</td><td>flush and compaction threads</td></tr>
 *   <tr><td>{@code rocksdb.maxTotalWalBytes}</td><td>16777216 (16 MiB)</td>
 *       <td>the live write-ahead log: past it, the families pinning the oldest log file are flushed;
 *       bounds the log replayed at the next open (at least 1 MiB)</td></tr>
 *   <tr><td>{@code rocksdb.memtableBytes}</td><td>8388608 (8 MiB)</td>
 *       <td>the memtables of every family together, charged to the block cache: past it a family is
 *       flushed (at least 1 MiB)</td></tr>
 *   <tr><td>{@code rocksdb.infoLogBytes}</td><td>1048576 (1 MiB)</td>
 *       <td>RocksDB's own diagnostic log ({@code LOG}, {@code LOG.old.*}) at most, in four files of a
 *       quarter each (at least 256 KiB)</td></tr>
 * </table>
 */
public final class RocksStoreProvider implements StoreProvider {

    /** This backend's name. */
    public static final String NAME = "rocksdb";

    /** For {@link java.util.ServiceLoader}. */
    public RocksStoreProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Store open(StoreOptions options) {
        return RocksStore.open(options);
    }

    /** {@code CURRENT}, manifests and table files, when present. */
    @Override
    public List<Path> dataFiles(Path directory) {
        return RocksDataFiles.present(directory);
    }
}
