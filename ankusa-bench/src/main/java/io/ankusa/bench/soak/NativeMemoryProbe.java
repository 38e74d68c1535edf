package io.ankusa.bench.soak;

import io.ankusa.queue.Queue;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.ObjectName;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Where a soak child's native memory goes, so that a resident-set growth can be attributed: the
 * JVM's own native memory (Native Memory Tracking, when the child runs with
 * {@code -XX:NativeMemoryTracking=summary}, read through the {@code DiagnosticCommand} bean as
 * {@code jcmd VM.native_memory} would), the kernel's split of the resident set into anonymous and
 * file pages, and on RocksDB its memory properties (memtables, table readers, block cache), per
 * column family where they are per family.
 *
 * <p>RocksDB's handle is read from the store by reflection: the backend exports nothing, and this
 * is a diagnostic of a test program on the class path, not an API.
 */
final class NativeMemoryProbe {

    /** The RocksDB properties sampled, summed over the column families (the block cache is shared: read once). */
    static final String[] ROCKS_PER_FAMILY = {"rocksdb.cur-size-all-mem-tables", "rocksdb.size-all-mem-tables",
        "rocksdb.estimate-table-readers-mem"};
    static final String[] ROCKS_SHARED = {"rocksdb.block-cache-usage", "rocksdb.block-cache-pinned-usage"};
    /** Not a RocksDB property: the sum of {@code rocksdb.num-files-at-level<N>} over the seven levels. */
    static final String FILES_ALL_LEVELS = "files-all-levels";
    /**
     * RocksDB's table-file properties, summed over the column families: what the store's size on
     * disk is made of (tables still referenced by any version, tables of the current version, the
     * data they would shrink to without obsolete versions and tombstones, and table files at L0 and
     * in all levels).
     */
    static final String[] ROCKS_TABLES = {"rocksdb.total-sst-files-size", "rocksdb.live-sst-files-size",
        "rocksdb.estimate-live-data-size", "rocksdb.num-files-at-level0", FILES_ALL_LEVELS};

    private static final Pattern NMT_TOTAL = Pattern.compile("Total: reserved=(\\d+)KB, committed=(\\d+)KB");

    private final RocksDB db;
    private final Map<String, ColumnFamilyHandle> handles;

    private NativeMemoryProbe(RocksDB db, Map<String, ColumnFamilyHandle> handles) {
        this.db = db;
        this.handles = handles;
    }

    /** A probe of {@code queue}'s store: with RocksDB's handle when the store is RocksDB's. */
    static NativeMemoryProbe of(Queue queue) {
        Store store = ((QueueEngine) queue).store();
        if (!store.getClass().getName().equals("io.ankusa.store.rocksdb.RocksStore")) {
            return new NativeMemoryProbe(null, Map.of());
        }
        try {
            Field dbField = store.getClass().getDeclaredField("db");
            dbField.setAccessible(true);
            Field handlesField = store.getClass().getDeclaredField("handles");
            handlesField.setAccessible(true);
            @SuppressWarnings("unchecked")
            Map<String, ColumnFamilyHandle> handles = (Map<String, ColumnFamilyHandle>) handlesField.get(store);
            return new NativeMemoryProbe((RocksDB) dbField.get(store), handles);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach RocksDB in " + store, e);
        }
    }

    /** True when the store is RocksDB's. */
    boolean rocks() {
        return db != null;
    }

    /**
     * RocksDB's memory properties in bytes: each of {@link #ROCKS_PER_FAMILY} summed over the
     * declared families, then {@link #ROCKS_SHARED}; empty on another backend. Read while the
     * queue is open.
     */
    Map<String, Long> rocksTotals() {
        Map<String, Long> totals = new LinkedHashMap<>();
        if (db == null) {
            return totals;
        }
        try {
            for (String property : ROCKS_PER_FAMILY) {
                long sum = 0;
                for (ColumnFamilyHandle handle : handles.values()) {
                    sum += db.getLongProperty(handle, property);
                }
                totals.put(property, sum);
            }
            for (String property : ROCKS_SHARED) {
                totals.put(property, db.getLongProperty(property));
            }
        } catch (RocksDBException e) {
            throw new IllegalStateException("reading RocksDB's memory properties", e);
        }
        return totals;
    }

    /**
     * {@link #ROCKS_TABLES}, each summed over the declared families, in bytes or files; empty on
     * another backend. Read while the queue is open.
     */
    Map<String, Long> rocksTables() {
        Map<String, Long> totals = new LinkedHashMap<>();
        if (db == null) {
            return totals;
        }
        try {
            for (String property : ROCKS_TABLES) {
                long sum = 0;
                for (ColumnFamilyHandle handle : handles.values()) {
                    if (property.equals(FILES_ALL_LEVELS)) {
                        for (int level = 0; level < 7; level++) {
                            sum += Long.parseLong(db.getProperty(handle, "rocksdb.num-files-at-level" + level));
                        }
                    } else if (property.startsWith("rocksdb.num-files-at-level")) {
                        sum += Long.parseLong(db.getProperty(handle, property)); // a text property
                    } else {
                        sum += db.getLongProperty(handle, property);
                    }
                }
                totals.put(property, sum);
            }
        } catch (RocksDBException e) {
            throw new IllegalStateException("reading RocksDB's table properties", e);
        }
        return totals;
    }

    /**
     * Per column family, as text: its table bytes (total, live, estimated live data), its files per
     * level, and the entries and deletions its tables hold ({@code rocksdb.aggregated-table-properties}).
     */
    Map<String, String> rocksTablesByFamily() {
        Map<String, String> byFamily = new LinkedHashMap<>();
        if (db == null) {
            return byFamily;
        }
        try {
            for (Map.Entry<String, ColumnFamilyHandle> family : handles.entrySet()) {
                ColumnFamilyHandle handle = family.getValue();
                StringBuilder levels = new StringBuilder();
                for (int level = 0; level < 7; level++) {
                    levels.append(level == 0 ? "" : "/").append(db.getProperty(handle, "rocksdb.num-files-at-level" + level));
                }
                String aggregated = db.getProperty(handle, "rocksdb.aggregated-table-properties");
                byFamily.put(family.getKey(), String.format(java.util.Locale.ROOT,
                        "total-sst %d, live-sst %d, estimate-live-data %d, files L0..L6 %s; %s",
                        db.getLongProperty(handle, "rocksdb.total-sst-files-size"),
                        db.getLongProperty(handle, "rocksdb.live-sst-files-size"),
                        db.getLongProperty(handle, "rocksdb.estimate-live-data-size"), levels,
                        tableCounts(aggregated)));
            }
        } catch (RocksDBException e) {
            throw new IllegalStateException("reading RocksDB's table properties", e);
        }
        return byFamily;
    }

    /** The entry and deletion counts of {@code rocksdb.aggregated-table-properties}' text. */
    private static String tableCounts(String aggregated) {
        StringBuilder counts = new StringBuilder();
        for (String field : aggregated.split(";")) {
            String f = field.trim();
            if (f.startsWith("# entries") || f.startsWith("# deletions") || f.startsWith("# merge operands")
                    || f.startsWith("# range deletions") || f.startsWith("raw key size") || f.startsWith("raw value size")) {
                counts.append(counts.length() == 0 ? "" : ", ").append(f);
            }
        }
        return counts.toString();
    }

    /** Per column family: {@code rocksdb.size-all-mem-tables} and {@code rocksdb.estimate-table-readers-mem}, bytes. */
    Map<String, long[]> rocksByFamily() {
        Map<String, long[]> byFamily = new LinkedHashMap<>();
        if (db == null) {
            return byFamily;
        }
        try {
            for (Map.Entry<String, ColumnFamilyHandle> family : handles.entrySet()) {
                byFamily.put(family.getKey(), new long[] {
                    db.getLongProperty(family.getValue(), "rocksdb.cur-size-all-mem-tables"),
                    db.getLongProperty(family.getValue(), "rocksdb.size-all-mem-tables"),
                    db.getLongProperty(family.getValue(), "rocksdb.estimate-table-readers-mem")});
            }
        } catch (RocksDBException e) {
            throw new IllegalStateException("reading RocksDB's memory properties", e);
        }
        return byFamily;
    }

    /** {@code RssAnon} and {@code RssFile} of {@code /proc/self/status}, bytes. */
    static long[] residentSplit() {
        long[] split = new long[2];
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("RssAnon:")) {
                    split[0] = Long.parseLong(line.trim().split("\\s+")[1]) * 1024;
                } else if (line.startsWith("RssFile:")) {
                    split[1] = Long.parseLong(line.trim().split("\\s+")[1]) * 1024;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return split;
    }

    /**
     * Runs {@code VM.native_memory} with {@code arguments} (e.g. {@code "summary"},
     * {@code "baseline"}, {@code "summary.diff"}) in this JVM and returns its output; a line
     * saying NMT is off when the JVM was started without it.
     */
    static String nativeMemory(String arguments) {
        try {
            Object out = ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                    new Object[] {new String[] {arguments}}, new String[] {String[].class.getName()});
            return String.valueOf(out);
        } catch (JMException e) {
            return "VM.native_memory failed: " + e;
        }
    }

    /** The JVM's committed native memory in bytes by NMT ({@code Total: committed}), or -1 without NMT. */
    static long nmtCommitted() {
        Matcher total = NMT_TOTAL.matcher(nativeMemory("summary"));
        return total.find() ? Long.parseLong(total.group(2)) * 1024 : -1;
    }
}
