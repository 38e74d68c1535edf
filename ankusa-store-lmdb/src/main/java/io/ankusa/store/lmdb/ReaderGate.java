package io.ankusa.store.lmdb;

import io.ankusa.store.StoreClosedException;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts the live read transactions of a store (short reads, open scans, checkpoints) and holds
 * new ones back while the map is resized; refuses them once the store is closed.
 *
 * <p>LMDB unmaps and remaps the file to resize the map, so {@code mdb_env_set_mapsize} may only run
 * while no transaction of this process is live; a cursor left across it would point into unmapped
 * memory. Closing the environment has the same rule. A plain {@code ReadWriteLock} does not fit:
 * a scan is entered on one thread and may be closed on another, and its owner may commit (and so
 * need a resize) while it is open. So this gate counts instead of owning, and a resize waits a
 * bounded time rather than forever.
 */
final class ReaderGate {

    private final String storeName;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private int readers;
    private boolean resizing;
    private boolean closed;
    private String failure;

    ReaderGate(String storeName) {
        this.storeName = storeName;
    }

    /** Admits one read transaction; waits while a resize runs; throws once closed or failed. */
    void enterRead() {
        lock.lock();
        try {
            while (resizing && !closed) {
                changed.awaitUninterruptibly();
            }
            if (closed) {
                throw new StoreClosedException("store " + storeName + " is closed");
            }
            if (failure != null) {
                throw new StoreException(StoreError.IO, "store " + storeName + " can no longer be read ("
                        + failure + "); close and reopen it");
            }
            readers++;
        } finally {
            lock.unlock();
        }
    }

    /** Ends a read transaction admitted by {@link #enterRead()}. */
    void exitRead() {
        lock.lock();
        try {
            readers--;
            if (readers == 0) {
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Holds new readers back and waits up to {@code wait} for the live ones to end. True when the
     * caller may resize (then it must call {@link #exitResize()}); false when readers stayed (or the
     * thread was interrupted, which stays flagged), and readers are let in again.
     */
    boolean enterResize(Duration wait) {
        lock.lock();
        try {
            resizing = true;
            long nanos = wait.toNanos();
            while (readers > 0) {
                if (nanos <= 0) {
                    return cancelResize();
                }
                try {
                    nanos = changed.awaitNanos(nanos);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return cancelResize();
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Like {@link #enterResize} but only when no reader is live right now; never waits. */
    boolean tryEnterResize() {
        lock.lock();
        try {
            if (readers > 0 || resizing || closed || failure != null) {
                return false;
            }
            resizing = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Ends a resize and lets readers in. */
    void exitResize() {
        lock.lock();
        try {
            resizing = false;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Refuses every later reader with {@code reason}: the map is no longer safe to read. */
    void fail(String reason) {
        lock.lock();
        try {
            failure = reason;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Refuses every later reader; true for the first call only. */
    boolean close() {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            closed = true;
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@link #close()} was called. */
    boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every admitted reader has ended (after close: until the store is quiet). */
    void awaitNoReaders() {
        lock.lock();
        try {
            while (readers > 0) {
                changed.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    /** How many read transactions are live (for messages). */
    int readers() {
        lock.lock();
        try {
            return readers;
        } finally {
            lock.unlock();
        }
    }

    private boolean cancelResize() {
        resizing = false;
        changed.signalAll();
        return false;
    }
}
