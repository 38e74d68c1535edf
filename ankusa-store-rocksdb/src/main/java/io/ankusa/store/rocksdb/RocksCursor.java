package io.ankusa.store.rocksdb;

import io.ankusa.store.Cursor;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreException;
import java.nio.ByteBuffer;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Consumer;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DirectSlice;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * A {@link Cursor} over one RocksDB iterator, seeked again for every range: creating an iterator
 * (a superversion reference, a merging iterator over the memtables and every level) costs far more
 * than a seek on a live one. Every seek reads the implicit snapshot taken when the iterator was
 * created.
 *
 * <p>The range's end is RocksDB's iterate upper bound, so a seek never walks the tombstones past
 * it: the bound is a {@link DirectSlice} over a direct buffer whose content and length change
 * before each seek (the iterator keeps a pointer to it, and reads it at every seek and step). A
 * range whose end does not fit the buffer gets a new iterator over a larger one (a newer view); a
 * range without an end is read by an iterator of its own without a bound, made when first needed.
 *
 * <p>Failures are thrown as by {@link RocksScan} (a bad block makes the iterator invalid with a
 * failed status, which is thrown, never taken for the end); after one the cursor is failed. Every
 * native call runs inside the store's {@link CloseGate} and then under this cursor's monitor.
 */
final class RocksCursor implements Cursor {

    /** Bytes of upper bound the first iterator takes; a longer bound gets a larger buffer. */
    static final int BOUND_BYTES = 64;

    private final RocksDB db;
    private final ColumnFamilyHandle family;
    private final String description;
    private final CloseGate gate;
    private final Consumer<RocksCursor> onRelease;

    /** The bounded iterator and its options; null until the first bounded seek. */
    private Bounded bounded;
    /** The iterator for ranges without an end; null until the first such seek. */
    private ReadOptions openOptions;
    private RocksIterator open;

    private RocksIterator current;
    private KeyRange range = KeyRange.all();
    private KeyValue pending;
    private boolean exhausted;
    private long generation;
    private boolean closed;
    private StoreException failure;

    /** A bounded iterator: its options read the bound through {@code upper}, over {@code buffer}. */
    private record Bounded(ByteBuffer buffer, DirectSlice upper, ReadOptions options, RocksIterator iterator) {
        void close() {
            // The iterator reads through the options, which read through the bound: free in that order.
            iterator.close();
            options.close();
            upper.close();
        }
    }

    RocksCursor(RocksDB db, ColumnFamilyHandle family, String familyName, CloseGate gate,
            Consumer<RocksCursor> onRelease) {
        this.db = db;
        this.family = family;
        this.description = "cursor over family '" + familyName + "'";
        this.gate = gate;
        this.onRelease = onRelease;
    }

    @Override
    public Scan seek(KeyRange range) {
        Objects.requireNonNull(range, "range");
        gate.enter();
        try {
            synchronized (this) {
                requireUsable();
                generation++;
                this.range = range;
                pending = null;
                exhausted = false;
                byte[] from = range.from();
                current = range.bounded() ? boundedTo(range.to()) : unbounded();
                if (from.length > 0) {
                    current.seek(from);
                } else {
                    current.seekToFirst();
                }
                return new View(generation);
            }
        } finally {
            gate.exit();
        }
    }

    /** The bounded iterator with its bound set to {@code to}; a new one when {@code to} does not fit. */
    private RocksIterator boundedTo(byte[] to) {
        if (bounded == null || bounded.buffer().capacity() < to.length) {
            if (bounded != null) {
                bounded.close();
                bounded = null;
            }
            ByteBuffer buffer = ByteBuffer.allocateDirect(Math.max(BOUND_BYTES, Integer.highestOneBit(to.length) * 2));
            DirectSlice upper = null;
            ReadOptions options = null;
            try {
                buffer.put(0, to);
                upper = new DirectSlice(buffer, to.length);
                options = new ReadOptions().setIterateUpperBound(upper);
                bounded = new Bounded(buffer, upper, options, db.newIterator(family, options));
            } catch (RuntimeException | Error e) {
                if (options != null) {
                    options.close();
                }
                if (upper != null) {
                    upper.close();
                }
                throw e;
            }
            return bounded.iterator();
        }
        bounded.buffer().put(0, to);
        bounded.upper().setLength(to.length);
        return bounded.iterator();
    }

    private RocksIterator unbounded() {
        if (open == null) {
            openOptions = new ReadOptions();
            open = db.newIterator(family, openOptions);
        }
        return open;
    }

    /** Makes {@link #pending} the next entry of the current seek if there is one; under the gate and the monitor. */
    private synchronized boolean advance(long view) {
        requireUsable();
        if (view != generation) {
            throw new IllegalStateException(description + ": this seek's scan ended (the cursor was positioned again)");
        }
        if (pending != null) {
            return true;
        }
        if (exhausted) {
            return false;
        }
        if (!current.isValid()) {
            try {
                current.status();
            } catch (RocksDBException e) {
                failure = RocksFailures.translate(description, e);
                release();
                throw failure;
            }
            exhausted = true;
            return false;
        }
        byte[] key = current.key();
        if (!range.contains(key)) {
            exhausted = true;
            return false;
        }
        pending = new KeyValue(key, current.value());
        current.next();
        return true;
    }

    /** The next entry of the current seek; under the gate. */
    private synchronized KeyValue take(long view) {
        if (!advance(view)) {
            throw new NoSuchElementException(description + " has no more entries in " + range);
        }
        KeyValue entry = pending;
        pending = null;
        return entry;
    }

    private synchronized void requireUsable() {
        if (failure != null) {
            throw failure;
        }
        if (closed) {
            throw new StoreClosedException(description + " is closed");
        }
    }

    @Override
    public void close() {
        if (!gate.tryEnter()) {
            return; // the store is closed and has freed this cursor already
        }
        try {
            invalidate();
        } finally {
            gate.exit();
        }
    }

    /** Frees the natives if still held and marks the cursor closed; the caller holds the gate (shared or exclusive). */
    synchronized void invalidate() {
        if (!closed && failure == null) {
            release();
        }
        closed = true;
        pending = null;
    }

    private void release() {
        closed = true;
        if (bounded != null) {
            bounded.close();
            bounded = null;
        }
        if (open != null) {
            open.close();
            openOptions.close();
            open = null;
            openOptions = null;
        }
        current = null;
        onRelease.accept(this);
    }

    /** One seek's entries; ends at the cursor's next seek. */
    private final class View implements Scan {
        private final long view;
        private boolean viewClosed;

        View(long view) {
            this.view = view;
        }

        @Override
        public boolean hasNext() {
            gate.enter();
            try {
                requireOpen();
                return advance(view);
            } finally {
                gate.exit();
            }
        }

        @Override
        public KeyValue next() {
            if (!hasNext()) {
                throw new NoSuchElementException(description + " has no more entries in this range");
            }
            gate.enter();
            try {
                requireOpen();
                return take(view);
            } finally {
                gate.exit();
            }
        }

        private void requireOpen() {
            if (viewClosed) {
                throw new IllegalStateException(description + ": this seek's scan is closed");
            }
        }

        @Override
        public void close() {
            viewClosed = true;
        }
    }

    @Override
    public String toString() {
        return "RocksCursor[" + description + (closed ? ", closed" : "") + "]";
    }
}
