package io.ankusa.testkit.store;

import io.ankusa.store.Bytes;
import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.UnknownFamilyException;
import io.ankusa.store.WriteBatch;
import io.ankusa.store.spi.BatchValidator;
import io.ankusa.store.spi.CounterCodec;
import io.ankusa.store.spi.DirectoryLock;
import io.ankusa.store.spi.FamilyCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiConsumer;

/**
 * A {@link Store} on the heap: one {@link ConcurrentSkipListMap} per family in unsigned key order.
 *
 * <p>Atomicity and consistent views come from one read-write lock: a commit validates the whole
 * batch with {@link BatchValidator} and then applies it under the write lock, so no reader sees
 * half of it and a refused batch writes nothing; a scan copies its range under the read lock and
 * iterates the copy. {@code SYNC} and {@code ASYNC} are the same here: the heap is the "disk".
 */
final class MemoryStore implements Store {

    /** A store's data, kept by the provider across close and reopen. */
    static final class Image {
        final Map<String, NavigableMap<byte[], byte[]>> families = new ConcurrentHashMap<>();

        Image copy() {
            Image copy = new Image();
            families.forEach((name, rows) -> {
                NavigableMap<byte[], byte[]> target = newFamily();
                rows.forEach((k, v) -> target.put(k.clone(), v.clone()));
                copy.families.put(name, target);
            });
            return copy;
        }

        static NavigableMap<byte[], byte[]> newFamily() {
            return new ConcurrentSkipListMap<>(Bytes::compare);
        }
    }

    private final Path directory;
    private final List<FamilySpec> families;
    private final Map<String, FamilyKind> kinds = new LinkedHashMap<>();
    private final Image image;
    private final DirectoryLock lock;
    private final BiConsumer<Path, Image> register;
    private final ReadWriteLock views = new ReentrantReadWriteLock();
    private volatile boolean closed;

    MemoryStore(Path directory, List<FamilySpec> families, Image image, DirectoryLock lock,
            BiConsumer<Path, Image> register) {
        this.directory = directory;
        this.families = List.copyOf(families);
        this.image = image;
        this.lock = lock;
        this.register = register;
        for (FamilySpec spec : families) {
            kinds.put(spec.name(), spec.kind());
            image.families.computeIfAbsent(spec.name(), name -> Image.newFamily());
        }
    }

    @Override
    public String backend() {
        return MemoryStoreProvider.NAME;
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
        return multiGet(family, List.of(key)).get(0);
    }

    @Override
    public List<Optional<byte[]>> multiGet(String family, List<byte[]> keys) {
        List<Optional<byte[]>> out = new ArrayList<>(keys.size());
        read(() -> {
            NavigableMap<byte[], byte[]> rows = rows(family, FamilyKind.PLAIN);
            for (byte[] key : keys) {
                out.add(Optional.ofNullable(rows.get(requireKey(key))).map(byte[]::clone));
            }
        });
        return out;
    }

    @Override
    public long counter(String family, byte[] key) {
        return counters(family, List.of(key))[0];
    }

    @Override
    public long[] counters(String family, List<byte[]> keys) {
        long[] out = new long[keys.size()];
        read(() -> {
            NavigableMap<byte[], byte[]> rows = rows(family, FamilyKind.COUNTER);
            for (int i = 0; i < out.length; i++) {
                byte[] value = rows.get(requireKey(keys.get(i)));
                out[i] = value == null ? 0 : CounterCodec.decode(value);
            }
        });
        return out;
    }

    @Override
    public Scan scan(String family, KeyRange range, Direction direction) {
        List<KeyValue> copy = new ArrayList<>();
        read(() -> {
            NavigableMap<byte[], byte[]> rows = rows(family, null);
            NavigableMap<byte[], byte[]> part = range.bounded()
                    ? rows.subMap(range.from(), true, range.to(), false)
                    : rows.tailMap(range.from(), true);
            part.forEach((k, v) -> copy.add(new KeyValue(k.clone(), v.clone())));
        });
        if (direction == Direction.REVERSE) {
            Collections.reverse(copy);
        }
        return new CopiedScan(copy);
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        checkOpen();
        BatchValidator.validate(batch, kinds);
        views.writeLock().lock();
        try {
            checkOpen();
            for (WriteBatch.Op op : batch.ops()) {
                NavigableMap<byte[], byte[]> rows = image.families.get(op.family());
                if (op instanceof WriteBatch.Put put) {
                    rows.put(put.key().clone(), put.value().clone());
                } else if (op instanceof WriteBatch.Delete delete) {
                    rows.remove(delete.key());
                } else if (op instanceof WriteBatch.DeleteRange range) {
                    rows.subMap(range.from(), true, range.to(), false).clear();
                } else if (op instanceof WriteBatch.Merge merge) {
                    rows.merge(merge.key().clone(), CounterCodec.encode(merge.delta()),
                            (a, b) -> CounterCodec.encode(CounterCodec.decode(a) + CounterCodec.decode(b)));
                }
            }
        } finally {
            views.writeLock().unlock();
        }
    }

    /** The key and value bytes of every entry of every family (an O(entries) walk: a test store's size). */
    @Override
    public long sizeBytes() {
        long[] total = new long[1];
        read(() -> image.families.values().forEach(rows -> rows.forEach((k, v) -> total[0] += k.length + v.length)));
        return total[0];
    }

    @Override
    public void checkpoint(Path target) {
        checkOpen();
        if (Files.exists(target)) {
            throw new StoreException(StoreError.INVALID_ARGUMENT, "checkpoint target " + target + " exists");
        }
        read(() -> {
            try {
                Files.createDirectories(target);
            } catch (IOException e) {
                throw new StoreException(StoreError.IO, "cannot create " + target + ": " + e.getMessage(), e);
            }
            FamilyCatalog.copy(directory, target);
            register.accept(target.toAbsolutePath().normalize(), image.copy());
        });
    }

    @Override
    public void close() {
        views.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                lock.close();
            }
        } finally {
            views.writeLock().unlock();
        }
    }

    private void read(Runnable body) {
        checkOpen();
        views.readLock().lock();
        try {
            checkOpen();
            body.run();
        } finally {
            views.readLock().unlock();
        }
    }

    private NavigableMap<byte[], byte[]> rows(String family, FamilyKind expected) {
        if (expected != null) {
            BatchValidator.requireKind(kinds, family, expected);
        } else if (!kinds.containsKey(family)) {
            throw new UnknownFamilyException("unknown family '" + family + "'; declared: " + kinds.keySet());
        }
        return image.families.get(family);
    }

    private static byte[] requireKey(byte[] key) {
        if (key.length == 0) {
            throw new StoreException(StoreError.INVALID_ARGUMENT, "empty key");
        }
        return key;
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreClosedException("memory store " + directory + " is closed");
        }
    }

    /** A scan over a copy taken under the read lock; invalidated when the store closes. */
    private final class CopiedScan implements Scan {
        private final List<KeyValue> rows;
        private int next;

        CopiedScan(List<KeyValue> rows) {
            this.rows = rows;
        }

        @Override
        public boolean hasNext() {
            checkOpen();
            return next < rows.size();
        }

        @Override
        public KeyValue next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return rows.get(next++);
        }

        @Override
        public void close() {
            next = rows.size();
        }
    }
}
