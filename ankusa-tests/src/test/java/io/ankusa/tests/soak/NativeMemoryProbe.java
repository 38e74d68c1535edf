package io.ankusa.tests.soak;

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
