package io.ankusa.store.rocksdb;

import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.StoreOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.rocksdb.AbstractNativeReference;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Filter;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.MergeOperator;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.UInt64AddOperator;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

/**
 * Every native option object one open store needs, built from its {@link StoreOptions} and
 * {@link RocksSettings}, and closed together (in reverse order of creation) after the database.
 *
 * <p>Per family: a counter family gets RocksDB's {@code UInt64AddOperator} (8-byte little-endian,
 * two's complement, so negative deltas wrap back: the format of
 * {@link io.ankusa.store.spi.CounterCodec}), its declared write buffer (1 MiB by default: a flush
 * soon folds the operands), no compression, and {@code max_successive_merges}. A plain family gets
 * its declared write buffer and LZ4 when its compression hint is on. A write-buffer hint of 0
 * keeps RocksDB's default (64 MiB). Every family shares one LRU block cache and a 10-bit Bloom
 * filter, with index and filter partitioned into small blocks ({@link #tableConfig}). RocksDB's own {@code default}
 * family is always opened (RocksDB requires it); it is reachable only when declared (with a 1 MiB write buffer when it
 * is not). The live write-ahead log is capped by {@link RocksSettings#maxTotalWalBytes()}, which bounds the replay at
 * the next open. The memtables of all families together are bounded by {@link RocksSettings#memtableBytes()} through a
 * write buffer manager charged to the block cache (so memtables and cached blocks share its capacity). RocksDB's
 * info log is bounded by {@link RocksSettings#infoLogBytes()}.
 */
final class NativeOptions implements AutoCloseable {

    static final String DEFAULT_FAMILY = new String(RocksDB.DEFAULT_COLUMN_FAMILY, StandardCharsets.UTF_8);
    /** The write buffer of RocksDB's {@code default} family when it is not declared (it is never written then). */
    static final long UNDECLARED_DEFAULT_WRITE_BUFFER = 1L << 20;
    /**
     * The manifest is rewritten whole (the live files only) once it passes this. RocksDB's default
     * is 1 GiB; every flush and compaction appends an edit, about 3.7 KiB/min (5 MiB a day) under
     * the soak's 300 hooks/s.
     */
    static final long MAX_MANIFEST_BYTES = 4L << 20;
    /** Target size of one index or filter partition (RocksDB's {@code metadata_block_size}). */
    static final long METADATA_BLOCK_BYTES = 4096;

    private final Deque<AbstractNativeReference> owned = new ArrayDeque<>();
    private final List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    private DBOptions db;
    private ErrorRecoveryWatch recoveryWatch;
    private WriteOptions syncWrite;
    private WriteOptions asyncWrite;
    private ReadOptions defaultRead;

    private NativeOptions() {
    }

    /** Builds the options; closes what it built if any step fails. */
    static NativeOptions build(StoreOptions options, RocksSettings settings) {
        NativeOptions natives = new NativeOptions();
        try {
            natives.fill(options, settings);
            return natives;
        } catch (RuntimeException | Error e) {
            natives.close();
            throw e;
        }
    }

    private void fill(StoreOptions options, RocksSettings settings) {
        Cache cache = own(new LRUCache(settings.blockCacheBytes()));
        Filter bloom = own(new BloomFilter(10));
        MergeOperator add = own(new UInt64AddOperator());
        BlockBasedTableConfig table = tableConfig(cache, bloom);

        boolean defaultDeclared = false;
        for (FamilySpec spec : options.families()) {
            ColumnFamilyOptions family = own(new ColumnFamilyOptions()).setTableFormatConfig(table);
            if (spec.writeBufferBytes() > 0) {
                family.setWriteBufferSize(spec.writeBufferBytes());
            }
            if (spec.kind() == FamilyKind.COUNTER) {
                family.setMergeOperator(add)
                        .setCompressionType(CompressionType.NO_COMPRESSION)
                        .setMaxSuccessiveMerges(settings.counterMaxSuccessiveMerges());
            } else {
                family.setCompressionType(spec.compressed() ? CompressionType.LZ4_COMPRESSION
                        : CompressionType.NO_COMPRESSION);
            }
            descriptors.add(new ColumnFamilyDescriptor(spec.name().getBytes(StandardCharsets.UTF_8), family));
            defaultDeclared |= spec.name().equals(DEFAULT_FAMILY);
        }
        if (!defaultDeclared) {
            // Never written, but RocksDB reserves the largest write buffer of any family as the free
            // space it needs before it resumes after a full disk: its 64 MiB default would be that.
            ColumnFamilyOptions family = own(new ColumnFamilyOptions()).setTableFormatConfig(table)
                    .setWriteBufferSize(UNDECLARED_DEFAULT_WRITE_BUFFER);
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, family));
        }

        // Charged to the block cache: memtables and cached blocks share one budget, and past
        // memtableBytes RocksDB flushes a family (no stall: allowStall false).
        WriteBufferManager memtables = own(new WriteBufferManager(settings.memtableBytes(), cache));
        recoveryWatch = own(new ErrorRecoveryWatch());
        db = own(new DBOptions())
                .setCreateIfMissing(options.createIfMissing())
                .setCreateMissingColumnFamilies(true)
                .setParanoidChecks(true)
                // An incomplete final record of a log (an unsynced batch cut by a crash) is dropped
                // whole; any other damage (a bad checksum, a bad length with records after it) fails
                // the open as corruption. Point-in-time recovery read such damage as the end of the
                // log and silently dropped every later batch, synced or not.
                .setWalRecoveryMode(WALRecoveryMode.TolerateCorruptedTailRecords)
                // Keep the replayed log in memtables instead of writing it out as tables at open:
                // an open on a nearly full disk then needs no room for the whole log.
                .setAvoidFlushDuringRecovery(true)
                .setListeners(List.of(recoveryWatch))
                .setMaxBackgroundJobs(settings.maxBackgroundJobs())
                // Once the live log files pass this, RocksDB flushes the families pinning the oldest
                // one: a rarely written family no longer keeps every log file alive.
                .setMaxTotalWalSize(settings.maxTotalWalBytes())
                .setWriteBufferManager(memtables)
                // RocksDB's info log: a new file once one is full, the oldest deleted past the count
                // (without a size it wrote one LOG for the life of the process, a few KB a flush).
                .setMaxLogFileSize(settings.infoLogFileBytes())
                .setMaxManifestFileSize(MAX_MANIFEST_BYTES)
                .setKeepLogFileNum(RocksSettings.INFO_LOG_FILES);
        syncWrite = own(new WriteOptions()).setSync(true);
        asyncWrite = own(new WriteOptions()).setSync(false);
        defaultRead = own(new ReadOptions());
    }

    /**
     * The table options every family is opened with. Index and filter are partitioned into blocks
     * of about {@value #METADATA_BLOCK_BYTES} bytes under a small top-level index that stays pinned
     * in the block cache. Unpartitioned, a table file's Bloom filter is one block of 10 bits per key
     * (2.5 MB for the 2 million counter rows of a million tenants), larger than one shard of the
     * LRU cache (64 MiB in 64 shards: 1 MiB), so the cache dropped it as soon as it was read and
     * every point read of that file read and checksummed the whole filter again: about 300 µs of
     * CPU per {@code get}, 2 ms per read of a tenant's seven counters. A partition is read once and
     * stays cached like a data block.
     */
    static BlockBasedTableConfig tableConfig(Cache cache, Filter filter) {
        return new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setFilterPolicy(filter)
                .setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true)
                .setIndexType(IndexType.kTwoLevelIndexSearch)
                .setPartitionFilters(true)
                .setMetadataBlockSize(METADATA_BLOCK_BYTES)
                .setPinTopLevelIndexAndFilter(true);
    }

    private <T extends AbstractNativeReference> T own(T reference) {
        owned.push(reference);
        return reference;
    }

    DBOptions db() {
        return db;
    }

    /** The database's background errors and recoveries. */
    ErrorRecoveryWatch recoveryWatch() {
        return recoveryWatch;
    }

    /** Declared families in order, then RocksDB's {@code default} if it was not declared. */
    List<ColumnFamilyDescriptor> descriptors() {
        return descriptors;
    }

    WriteOptions syncWrite() {
        return syncWrite;
    }

    WriteOptions asyncWrite() {
        return asyncWrite;
    }

    /**
     * RocksDB's default read options (the latest state, checksums verified); never changed, so shared by every thread.
     */
    ReadOptions defaultRead() {
        return defaultRead;
    }

    /** Closes every native option, newest first; call after the database is closed. */
    @Override
    public void close() {
        while (!owned.isEmpty()) {
            owned.pop().close();
        }
    }
}
