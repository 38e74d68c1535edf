package io.ankusa.queue.deliveries;

import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Striped locks by tenant ordinal. A transition that consumes an existing due or dead row (claim,
 * purge, revive) holds its tenant's stripe from the read of the row to the commit of its
 * transition, so two transitions never consume the same row. Ingest and counters never lock:
 * ingest only creates rows, counters are merges.
 *
 * <p>Every transition that removes due rows (claim, purge) also counts itself in
 * {@link #dueRemovals()} under its stripe, after its commit (or its failure): a claim that finds
 * the count unchanged since before it read its rows (outside the stripes) knows no removal
 * committed after that read, so they are all still stored. Counting before the commit would let
 * a read between the count and the commit see rows that commit then removes.
 */
public final class TenantStripes {

    /** Default number of stripes. */
    public static final int DEFAULT_STRIPES = 1024;

    private final ReentrantLock[] locks;
    private final AtomicLong dueRemovals = new AtomicLong();
    private final AtomicLong historyRemovals = new AtomicLong();

    /** {@code stripes} locks (a power of two is not required). */
    public TenantStripes(int stripes) {
        if (stripes < 1) {
            throw new IllegalArgumentException("stripes must be >= 1: " + stripes);
        }
        locks = new ReentrantLock[stripes];
        for (int i = 0; i < stripes; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    /** Runs {@code body} holding the stripe of {@code ord}, and returns its result. */
    public <T> T locked(long ord, Supplier<T> body) {
        ReentrantLock lock = locks[index(ord)];
        lock.lock();
        try {
            return body.get();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code body} holding the stripes of every ordinal, taken in stripe order (so two callers cannot deadlock),
     * and returns its result.
     */
    public <T> T lockedAll(Collection<Long> ords, Supplier<T> body) {
        int[] indexes = ords.stream().mapToInt(this::index).distinct().sorted().toArray();
        int taken = 0;
        try {
            for (int index : indexes) {
                locks[index].lock();
                taken++;
            }
            return body.get();
        } finally {
            for (int i = taken - 1; i >= 0; i--) {
                locks[indexes[i]].unlock();
            }
        }
    }

    /**
     * Counts a transition that removed due rows; called under the stripe of each tenant whose rows it removed, after
     * its commit.
     */
    public void removedDue() {
        dueRemovals.incrementAndGet();
    }

    /** Transitions that removed (or set out to remove) due rows so far. */
    public long dueRemovals() {
        return dueRemovals.get();
    }

    /**
     * Counts a removal of attempt history keys (the retention, erasure); called under the stripe of
     * the tenant whose keys it removed, after its commit. A settle whose history reads (made outside
     * the stripes) saw the count unchanged by the time it holds its stripes knows they are still
     * exact, so the bytes it adds to and takes from the {@code history_bytes} counter are too.
     */
    public void removedHistory() {
        historyRemovals.incrementAndGet();
    }

    /** Removals of attempt history keys so far. */
    public long historyRemovals() {
        return historyRemovals.get();
    }

    private int index(long ord) {
        return (int) Long.remainderUnsigned(ord * 0x9E37_79B9_7F4A_7C15L >>> 16, locks.length);
    }
}
