package io.ankusa.store.rocksdb;

import io.ankusa.store.StoreError;
import io.ankusa.store.spi.BackendSettings;
import java.util.Map;
import java.util.Set;

/**
 * The backend settings a {@link io.ankusa.store.StoreOptions#settings()} map may carry for this
 * backend. Any other key is refused, so that a misspelt setting fails at open instead of being
 * ignored.
 *
 * @param blockCacheBytes            {@value #BLOCK_CACHE_BYTES}: size of the one LRU block cache shared by
 *                                   every family (default 64 MiB)
 * @param counterMaxSuccessiveMerges {@value #COUNTER_MAX_SUCCESSIVE_MERGES}: RocksDB's
 *                                   {@code max_successive_merges} for counter families (default 64; 0 turns
 *                                   merge-on-write off)
 * @param maxBackgroundJobs          {@value #MAX_BACKGROUND_JOBS}: RocksDB's flush and compaction threads
 *                                   (default 2)
 * @param maxTotalWalBytes           {@value #MAX_TOTAL_WAL_BYTES}: RocksDB's {@code max_total_wal_size}
 *                                   (default 16 MiB): once the live write-ahead log files exceed it, the
 *                                   families that still pin the oldest file are flushed, so a family that
 *                                   is rarely written cannot keep the log (and the replay at the next
 *                                   open) growing
 * @param memtableBytes              {@value #MEMTABLE_BYTES}: the memtables of every family together
 *                                   (default 8 MiB), through a write buffer manager charged to the block
 *                                   cache: past it, RocksDB flushes a family's memtable; so memtables and
 *                                   cached blocks share {@code blockCacheBytes}
 * @param infoLogBytes               {@value #INFO_LOG_BYTES}: RocksDB's own diagnostic log ({@code LOG},
 *                                   {@code LOG.old.*}) at most (default 1 MiB), in {@value #INFO_LOG_FILES}
 *                                   files of a quarter each: RocksDB starts a new file when one is full and
 *                                   deletes the oldest
 */
record RocksSettings(long blockCacheBytes, long counterMaxSuccessiveMerges, int maxBackgroundJobs,
        long maxTotalWalBytes, long memtableBytes, long infoLogBytes) {

    static final String BLOCK_CACHE_BYTES = "rocksdb.blockCacheBytes";
    static final String COUNTER_MAX_SUCCESSIVE_MERGES = "rocksdb.counterMaxSuccessiveMerges";
    static final String MAX_BACKGROUND_JOBS = "rocksdb.maxBackgroundJobs";
    static final String MAX_TOTAL_WAL_BYTES = "rocksdb.maxTotalWalBytes";
    static final String MEMTABLE_BYTES = "rocksdb.memtableBytes";
    static final String INFO_LOG_BYTES = "rocksdb.infoLogBytes";

    static final long DEFAULT_BLOCK_CACHE_BYTES = 64L << 20;
    /**
     * Once a counter row has this many merge operands in a row at the head of the memtable, the
     * next merge reads the row (only if everything it needs is in memory) and writes the sum as a
     * plain value, so a read of a hot row never folds more than this many memtable operands.
     */
    static final long DEFAULT_COUNTER_MAX_SUCCESSIVE_MERGES = 64;
    static final int DEFAULT_MAX_BACKGROUND_JOBS = 2;
    /**
     * Bounds the write-ahead log, and with it the replay at the next open. Without it RocksDB's own
     * cap is four times the sum of every family's write buffers (hundreds of MiB here): under a
     * steady load a rarely written family pinned every log file for about an hour.
     */
    static final long DEFAULT_MAX_TOTAL_WAL_BYTES = 16L << 20;
    /** Smaller than one log file's worth of writes would flush on nearly every commit. */
    static final long MIN_MAX_TOTAL_WAL_BYTES = 1L << 20;
    /**
     * Bounds the memtables of all families together. Without it they were bounded only through the
     * log cap (every memtable byte is in a live log file) and sawed between about 4 and 24 MiB under
     * a steady 300 hooks/s, the largest part of the resident set's movement in the soak; at 8 MiB
     * they stay under 8 MiB and the flushes are about 25 s apart at that rate.
     */
    static final long DEFAULT_MEMTABLE_BYTES = 8L << 20;
    /** Below a few arena blocks every write would flush. */
    static final long MIN_MEMTABLE_BYTES = 1L << 20;
    /**
     * Bounds RocksDB's info log. Without it RocksDB writes one {@code LOG} for the life of the
     * process (a new one only at the next open), a few KB for every flush and compaction: under a
     * steady 300 hooks/s it grew 0.12 MiB/min (about 170 MiB a day), which was the whole of the
     * store's growth in a soak at that load. At 1 MiB it holds the options dump of the last open
     * and roughly the last 5 to 10 minutes of flushes and compactions at that rate.
     */
    static final long DEFAULT_INFO_LOG_BYTES = 1L << 20;
    /** The info log files kept: the one being written and three older ones. */
    static final int INFO_LOG_FILES = 4;
    /** A quarter of this is one info log file, enough for the options dump RocksDB writes at every open. */
    static final long MIN_INFO_LOG_BYTES = 256L << 10;

    private static final Set<String> KNOWN = Set.of(BLOCK_CACHE_BYTES, COUNTER_MAX_SUCCESSIVE_MERGES,
            MAX_BACKGROUND_JOBS, MAX_TOTAL_WAL_BYTES, MEMTABLE_BYTES, INFO_LOG_BYTES);

    /** The defaults. */
    static RocksSettings defaults() {
        return new RocksSettings(DEFAULT_BLOCK_CACHE_BYTES, DEFAULT_COUNTER_MAX_SUCCESSIVE_MERGES,
                DEFAULT_MAX_BACKGROUND_JOBS, DEFAULT_MAX_TOTAL_WAL_BYTES, DEFAULT_MEMTABLE_BYTES,
                DEFAULT_INFO_LOG_BYTES);
    }

    /** Reads {@code settings}, refusing unknown keys and malformed values with {@link StoreError#INVALID_ARGUMENT}. */
    static RocksSettings parse(Map<String, String> settings) {
        BackendSettings.requireKnown(settings, KNOWN, "rocksdb");
        return new RocksSettings(
                BackendSettings.number(settings, BLOCK_CACHE_BYTES, DEFAULT_BLOCK_CACHE_BYTES, 0, Long.MAX_VALUE),
                BackendSettings.number(settings, COUNTER_MAX_SUCCESSIVE_MERGES, DEFAULT_COUNTER_MAX_SUCCESSIVE_MERGES,
                        0, 1_000_000),
                (int) BackendSettings.number(settings, MAX_BACKGROUND_JOBS, DEFAULT_MAX_BACKGROUND_JOBS, 1, 256),
                BackendSettings.number(settings, MAX_TOTAL_WAL_BYTES, DEFAULT_MAX_TOTAL_WAL_BYTES,
                        MIN_MAX_TOTAL_WAL_BYTES, Long.MAX_VALUE),
                BackendSettings.number(settings, MEMTABLE_BYTES, DEFAULT_MEMTABLE_BYTES, MIN_MEMTABLE_BYTES,
                        Long.MAX_VALUE),
                BackendSettings.number(settings, INFO_LOG_BYTES, DEFAULT_INFO_LOG_BYTES, MIN_INFO_LOG_BYTES,
                        Long.MAX_VALUE));
    }

    /** One info log file's size: RocksDB's {@code max_log_file_size}. */
    long infoLogFileBytes() {
        return infoLogBytes / INFO_LOG_FILES;
    }
}
