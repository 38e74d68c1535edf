package io.ankusa.store.rocksdb;

import io.ankusa.store.StoreClosedException;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Keeps native calls and the release of the natives they use apart. Every call into RocksDB runs
 * between {@link #enter()} and {@link #exit()} (a shared hold); {@link #close(Runnable)} takes the
 * exclusive hold, so it waits for every native call in progress and lets no new one start. A call
 * that loses the race to close gets {@link StoreClosedException}, never a freed pointer.
 */
final class CloseGate {

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final String name;
    private volatile boolean closed;

    CloseGate(String name) {
        this.name = name;
    }

    /** Takes a shared hold or throws {@link StoreClosedException}; pair with {@link #exit()}. */
    void enter() {
        if (!tryEnter()) {
            throw new StoreClosedException(name + " is closed");
        }
    }

    /** Takes a shared hold unless closed; pair a {@code true} with {@link #exit()}. */
    boolean tryEnter() {
        lock.readLock().lock();
        if (closed) {
            lock.readLock().unlock();
            return false;
        }
        return true;
    }

    /** Releases a shared hold. */
    void exit() {
        lock.readLock().unlock();
    }

    /**
     * Closes the gate and runs {@code release} while no native call is in progress.
     *
     * @return false if the gate was already closed (then {@code release} does not run)
     */
    boolean close(Runnable release) {
        lock.writeLock().lock();
        try {
            if (closed) {
                return false;
            }
            closed = true;
            release.run();
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }
}
