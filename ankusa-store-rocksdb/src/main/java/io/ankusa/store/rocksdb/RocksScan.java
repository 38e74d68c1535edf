package io.ankusa.store.rocksdb;

import io.ankusa.store.Bytes;
import io.ankusa.store.Direction;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreException;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * A scan over one RocksDB iterator, which reads from the implicit snapshot taken when it was
 * created. The range's ends are set as RocksDB's iterate bounds and checked again here.
 *
 * <p>RocksDB iterators do not throw: on a bad block they just become invalid. So every time the
 * iterator turns invalid this scan asks for its status, and a failure is thrown (and thrown again
 * on every later call) instead of ending the scan. A scan frees its natives as soon as it is
 * exhausted, fails or is closed; the store frees those of scans still open when it closes, after
 * which they throw {@link StoreClosedException}.
 *
 * <p>Every native call runs inside the store's {@link CloseGate} and then under this scan's
 * monitor, always in that order, so a store closing concurrently never frees an iterator in use.
 */
final class RocksScan implements Scan {

    private enum State { OPEN, EXHAUSTED, FAILED, CLOSED }

    private final CloseGate gate;
    private final Consumer<RocksScan> onRelease;
    private final String description;
    private final KeyRange range;
    private final Direction direction;
    private final Slice lower;
    private final Slice upper;
    private final ReadOptions readOptions;
    private final RocksIterator iterator;

    private State state = State.OPEN;
    private KeyValue pending;
    private StoreException failure;

    private RocksScan(CloseGate gate, Consumer<RocksScan> onRelease, String description, KeyRange range,
            Direction direction, Slice lower, Slice upper, ReadOptions readOptions, RocksIterator iterator) {
        this.gate = gate;
        this.onRelease = onRelease;
        this.description = description;
        this.range = range;
        this.direction = direction;
        this.lower = lower;
        this.upper = upper;
        this.readOptions = readOptions;
        this.iterator = iterator;
    }

    /**
     * Opens and positions a scan; the caller holds the gate. {@code onRelease} is told once,
     * when the scan frees its natives.
     */
    static RocksScan open(RocksDB db, ColumnFamilyHandle family, String familyName, KeyRange range,
            Direction direction, CloseGate gate, Consumer<RocksScan> onRelease) {
        byte[] from = range.from();
        Slice lower = null;
        Slice upper = null;
        ReadOptions readOptions = null;
        RocksIterator iterator = null;
        try {
            readOptions = new ReadOptions();
            if (from.length > 0) {
                lower = new Slice(from);
                readOptions.setIterateLowerBound(lower);
            }
            if (range.bounded()) {
                upper = new Slice(range.to());
                readOptions.setIterateUpperBound(upper);
            }
            iterator = db.newIterator(family, readOptions);
            if (direction == Direction.FORWARD) {
                if (from.length > 0) {
                    iterator.seek(from);
                } else {
                    iterator.seekToFirst();
                }
            } else if (range.bounded()) {
                byte[] to = range.to();
                iterator.seekForPrev(to);
                if (iterator.isValid() && Bytes.compare(iterator.key(), to) >= 0) {
                    iterator.prev();
                }
            } else {
                iterator.seekToLast();
            }
            return new RocksScan(gate, onRelease, "scan of family '" + familyName + "' over " + range,
                    range, direction, lower, upper, readOptions, iterator);
        } catch (RuntimeException | Error e) {
            closeAll(iterator, readOptions, lower, upper);
            throw e;
        }
    }

    @Override
    public boolean hasNext() {
        gate.enter();
        try {
            synchronized (this) {
                return advance();
            }
        } finally {
            gate.exit();
        }
    }

    @Override
    public KeyValue next() {
        gate.enter();
        try {
            synchronized (this) {
                if (!advance()) {
                    throw new NoSuchElementException(description + " has no more entries");
                }
                KeyValue entry = pending;
                pending = null;
                return entry;
            }
        } finally {
            gate.exit();
        }
    }

    /** Makes {@link #pending} the next entry if there is one; runs under the gate and the monitor. */
    private boolean advance() {
        switch (state) {
            case CLOSED -> throw new StoreClosedException(description + " is closed");
            case FAILED -> throw failure;
            case EXHAUSTED -> {
                return false;
            }
            case OPEN -> {
                // read on below
            }
        }
        if (pending != null) {
            return true;
        }
        if (!iterator.isValid()) {
            try {
                iterator.status();
            } catch (RocksDBException e) {
                failure = RocksFailures.translate(description, e);
                release(State.FAILED);
                throw failure;
            }
            release(State.EXHAUSTED);
            return false;
        }
        byte[] key = iterator.key();
        if (!range.contains(key)) {
            release(State.EXHAUSTED);
            return false;
        }
        pending = new KeyValue(key, iterator.value());
        if (direction == Direction.FORWARD) {
            iterator.next();
        } else {
            iterator.prev();
        }
        return true;
    }

    /** Frees the natives; later calls throw {@link StoreClosedException}. Idempotent. */
    @Override
    public void close() {
        if (!gate.tryEnter()) {
            return; // the store is closed and has freed this scan already
        }
        try {
            synchronized (this) {
                invalidate();
            }
        } finally {
            gate.exit();
        }
    }

    /** Frees the natives if still held and marks the scan closed; the caller holds the gate (shared or exclusive). */
    synchronized void invalidate() {
        if (state == State.OPEN) {
            release(State.CLOSED);
        } else {
            state = State.CLOSED;
        }
        pending = null;
    }

    private void release(State next) {
        state = next;
        closeAll(iterator, readOptions, lower, upper);
        onRelease.accept(this);
    }

    private static void closeAll(RocksIterator iterator, ReadOptions readOptions, Slice lower, Slice upper) {
        // The iterator reads through the options, which read through the bound slices: free in that order.
        if (iterator != null) {
            iterator.close();
        }
        if (readOptions != null) {
            readOptions.close();
        }
        if (lower != null) {
            lower.close();
        }
        if (upper != null) {
            upper.close();
        }
    }

    @Override
    public String toString() {
        return "RocksScan[" + description + ", " + direction + ", " + state + "]";
    }
}
