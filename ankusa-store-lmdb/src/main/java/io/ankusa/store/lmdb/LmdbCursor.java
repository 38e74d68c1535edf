package io.ankusa.store.lmdb;

import io.ankusa.store.Bytes;
import io.ankusa.store.Cursor;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreException;
import io.ankusa.store.spi.CounterCodec;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Consumer;
import org.lmdbjava.Env;
import org.lmdbjava.GetOp;
import org.lmdbjava.LmdbException;

/**
 * A {@link Cursor} over one family: one read transaction and one LMDB cursor, re-positioned
 * ({@code MDB_SET_RANGE}) for every seek, instead of a transaction and a cursor per range. Every
 * seek reads the view of the transaction, begun when the cursor was opened; while it is open it
 * holds a reader slot, as a scan does (close it before committing from the same thread: a commit
 * that must grow the map waits for no reader).
 *
 * <p>{@code synchronized} throughout, so one thread at a time uses the transaction, as LMDB
 * requires (the environment has {@code MDB_NOTLS}). The transaction ends when the cursor is closed,
 * fails, or is invalidated by the store's close; then {@code released} is told once.
 */
final class LmdbCursor implements Cursor {

    private final Family family;
    private final String description;
    /** The transaction read through; null only when opening it failed. */
    private LmdbReadTxn reader;
    /** The reader's cursor until this cursor ends, then null. */
    private org.lmdbjava.Cursor<byte[]> cursor;
    private String closedReason;
    private StoreException failure;

    private byte[] to;
    private byte[] from = new byte[0];
    private boolean started;
    private boolean exhausted;
    private KeyValue pending;
    private long generation;

    private LmdbCursor(Family family) {
        this.family = family;
        this.description = "cursor over family '" + family.name() + "'";
    }

    /**
     * Opens a cursor in a new read transaction. The caller has admitted a reader; {@code released}
     * is called once when the transaction ends (also when this method throws).
     */
    static LmdbCursor open(Env<byte[]> env, Family family, Consumer<LmdbCursor> released) {
        LmdbCursor opened = new LmdbCursor(family);
        opened.reader = LmdbReadTxn.open(env, family, () -> released.accept(opened));
        opened.cursor = opened.reader.cursor();
        return opened;
    }

    @Override
    public synchronized Scan seek(KeyRange range) {
        Objects.requireNonNull(range, "range");
        requireUsable();
        generation++;
        from = range.from();
        to = range.bounded() ? range.to() : null;
        started = false;
        exhausted = false;
        pending = null;
        return new View(generation);
    }

    private void requireUsable() {
        if (closedReason != null) {
            throw new StoreClosedException(closedReason);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private synchronized boolean hasNext(long view) {
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
        try {
            pending = step();
        } catch (LmdbException e) {
            throw fail(LmdbErrors.translate(e, description));
        } catch (StoreException e) {
            throw fail(e);
        }
        exhausted = pending == null;
        return pending != null;
    }

    private synchronized KeyValue next(long view) {
        if (!hasNext(view)) {
            throw new NoSuchElementException(description + " has no more entries in this range");
        }
        KeyValue next = pending;
        pending = null;
        return next;
    }

    private KeyValue step() {
        boolean found;
        if (!started) {
            started = true;
            if (to != null && Bytes.compare(from, to) >= 0) {
                return null;
            }
            found = from.length == 0 ? cursor.first() : cursor.get(from, GetOp.MDB_SET_RANGE);
        } else {
            found = cursor.next();
        }
        if (!found) {
            return null;
        }
        byte[] key = cursor.key();
        if (to != null && Bytes.compare(key, to) >= 0) {
            return null;
        }
        byte[] value = cursor.val();
        if (family.kind() == FamilyKind.COUNTER) {
            CounterCodec.decode(value); // a counter that is not 8 bytes is corruption: throw, never skip
        }
        return new KeyValue(key, value);
    }

    @Override
    public synchronized void close() {
        if (closedReason == null) {
            closedReason = description + " is closed";
        }
        pending = null;
        release();
    }

    /** Ends the cursor because its store is closing; a later call throws. */
    synchronized void invalidate() {
        if (closedReason == null) {
            closedReason = "the store of this " + description + " is closed";
        }
        pending = null;
        release();
    }

    private StoreException fail(StoreException e) {
        failure = e;
        pending = null;
        release();
        return e;
    }

    private void release() {
        cursor = null;
        if (reader != null) {
            reader.end();
        }
    }

    /** One seek's entries; ends at the cursor's next seek. */
    private final class View implements Scan {
        private final long view;
        private boolean closed;

        View(long view) {
            this.view = view;
        }

        @Override
        public boolean hasNext() {
            requireOpen();
            return LmdbCursor.this.hasNext(view);
        }

        @Override
        public KeyValue next() {
            if (!hasNext()) {
                throw new NoSuchElementException(description + " has no more entries in this range");
            }
            return LmdbCursor.this.next(view);
        }

        private void requireOpen() {
            if (closed) {
                throw new IllegalStateException(description + ": this seek's scan is closed");
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
