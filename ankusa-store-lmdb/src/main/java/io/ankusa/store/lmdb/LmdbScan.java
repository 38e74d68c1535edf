package io.ankusa.store.lmdb;

import io.ankusa.store.Bytes;
import io.ankusa.store.Direction;
import io.ankusa.store.FamilyKind;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreException;
import io.ankusa.store.spi.CounterCodec;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.lmdbjava.Cursor;
import org.lmdbjava.Env;
import org.lmdbjava.GetOp;
import org.lmdbjava.LmdbException;

/**
 * A scan over one family: a cursor in its own read transaction, so one consistent view, stepped
 * lazily. Keys compare as unsigned bytes (LMDB's default {@code memcmp} order, and
 * {@link Bytes#compare} for the range ends).
 *
 * <p>The environment has {@code MDB_NOTLS}, so the read transaction is not bound to the thread
 * that opened it; every method is {@code synchronized}, so one thread at a time uses it, as LMDB
 * requires. The transaction ends when the scan is exhausted, fails, is closed, or is invalidated
 * by the store's close; then {@code released} is told once.
 */
final class LmdbScan implements Scan {

    private final Family family;
    private final byte[] from;
    private final byte[] to;
    private final Direction direction;
    /** The transaction read through; null only when opening it failed. */
    private LmdbReadTxn reader;
    /** The reader's cursor until the scan ends, then null. */
    private Cursor<byte[]> cursor;
    private boolean started;
    private boolean exhausted;
    private KeyValue pending;
    private StoreException failure;
    private String closedReason;

    private LmdbScan(Family family, KeyRange range, Direction direction) {
        this.family = family;
        this.from = range.from();
        this.to = range.bounded() ? range.to() : null;
        this.direction = direction;
    }

    /**
     * Opens a scan in a new read transaction. The caller has admitted a reader; {@code released}
     * is called once when the transaction ends (also when this method throws).
     */
    static LmdbScan open(Env<byte[]> env, Family family, KeyRange range, Direction direction,
            Consumer<LmdbScan> released) {
        LmdbScan scan = new LmdbScan(family, range, direction);
        scan.reader = LmdbReadTxn.open(env, family, () -> released.accept(scan));
        scan.cursor = scan.reader.cursor();
        return scan;
    }

    @Override
    public synchronized boolean hasNext() {
        if (closedReason != null) {
            throw new StoreClosedException(closedReason);
        }
        if (failure != null) {
            throw failure;
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
            throw fail(LmdbErrors.translate(e, "scan of family '" + family.name() + "'"));
        } catch (StoreException e) {
            throw fail(e);
        }
        if (pending == null) {
            exhausted = true;
            release();
        }
        return pending != null;
    }

    @Override
    public synchronized KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException("scan of family '" + family.name() + "' is exhausted");
        }
        KeyValue next = pending;
        pending = null;
        return next;
    }

    @Override
    public synchronized void close() {
        if (closedReason == null) {
            closedReason = "scan of family '" + family.name() + "' is closed";
        }
        pending = null;
        release();
    }

    /** Ends the scan because its store is closing; a later {@code hasNext} throws. */
    synchronized void invalidate() {
        if (closedReason == null) {
            closedReason = "the store of this scan of family '" + family.name() + "' is closed";
        }
        pending = null;
        release();
    }

    private KeyValue step() {
        boolean found;
        if (!started) {
            started = true;
            if (to != null && Bytes.compare(from, to) >= 0) {
                return null;
            }
            found = direction == Direction.FORWARD ? seekFirst() : seekLast();
        } else {
            found = direction == Direction.FORWARD ? cursor.next() : cursor.prev();
        }
        if (!found) {
            return null;
        }
        byte[] key = cursor.key();
        boolean inRange = direction == Direction.FORWARD
                ? to == null || Bytes.compare(key, to) < 0
                : Bytes.compare(key, from) >= 0;
        if (!inRange) {
            return null;
        }
        byte[] value = cursor.val();
        if (family.kind() == FamilyKind.COUNTER) {
            CounterCodec.decode(value); // a counter that is not 8 bytes is corruption: throw, never skip
        }
        return new KeyValue(key, value);
    }

    private boolean seekFirst() {
        return from.length == 0 ? cursor.first() : cursor.get(from, GetOp.MDB_SET_RANGE);
    }

    /** The last key below {@code to}: the entry before the first key at or after it, else the last. */
    private boolean seekLast() {
        if (to == null || !cursor.get(to, GetOp.MDB_SET_RANGE)) {
            return cursor.last();
        }
        return cursor.prev();
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
}
