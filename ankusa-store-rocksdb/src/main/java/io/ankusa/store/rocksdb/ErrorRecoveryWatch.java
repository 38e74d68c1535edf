package io.ankusa.store.rocksdb;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BackgroundErrorReason;
import org.rocksdb.Status;

/**
 * Counts RocksDB's background errors and its recoveries from them, so a caller can wait for the
 * database to be writable again without polling.
 *
 * <p>A write that hits a full disk leaves RocksDB in a hard background error: every later write
 * fails until it resumes. Java has no {@code DB::Resume()}; RocksDB resumes by itself, through its
 * {@code SstFileManager}, which checks the free space every 5 s and resumes (flushing the memtables
 * to a fresh log) once the free space is at least the largest write buffer. This listener sees
 * both ends of that: {@code OnBackgroundError} and {@code OnErrorRecoveryCompleted}.
 */
final class ErrorRecoveryWatch extends AbstractEventListener {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition recovered = lock.newCondition();
    private long errors;
    private long recoveries;

    ErrorRecoveryWatch() {
        super(EnabledEventCallback.ON_BACKGROUND_ERROR, EnabledEventCallback.ON_ERROR_RECOVERY_COMPLETED);
    }

    @Override
    public void onBackgroundError(BackgroundErrorReason reason, Status status) {
        lock.lock();
        try {
            errors++;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onErrorRecoveryCompleted(Status oldBackgroundError) {
        lock.lock();
        try {
            recoveries++;
            recovered.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Background errors seen since open. */
    long errors() {
        lock.lock();
        try {
            return errors;
        } finally {
            lock.unlock();
        }
    }

    /** Recoveries completed since open. */
    long recoveries() {
        lock.lock();
        try {
            return recoveries;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until at least {@code count} recoveries have completed; false if {@code timeout} passed first. */
    boolean awaitRecoveries(long count, Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lock();
        try {
            while (recoveries < count) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = recovered.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
