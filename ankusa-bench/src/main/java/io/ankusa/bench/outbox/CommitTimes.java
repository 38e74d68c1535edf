package io.ankusa.bench.outbox;

import io.ankusa.store.Cursor;
import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.support.ForwardingStore;
import java.util.Map;
import java.util.TreeMap;

/**
 * A forwarding store that times every commit by the thread that made it: how many, how many of them
 * synced, the wall time spent in {@code commit} and the ops committed. On LMDB the time includes
 * waiting for the single write lock (and for the shared transaction of the commits queued with
 * it), so the threads' times may add up to more than the wall time. Thread-safe.
 */
final class CommitTimes extends ForwardingStore {

    /** One thread's commits: count, synced count, nanoseconds in {@code commit}, ops. */
    record Tally(long commits, long synced, long nanos, long ops) {

        Tally plus(Durability durability, long took, int size) {
            return new Tally(commits + 1, synced + (durability == Durability.SYNC ? 1 : 0), nanos + took, ops + size);
        }
    }

    private final Map<String, Tally> tallies = new TreeMap<>();

    CommitTimes(Store delegate) {
        super(delegate);
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        long start = System.nanoTime();
        super.commit(batch, durability);
        long took = System.nanoTime() - start;
        String thread = DrainProfile.threadKind(Thread.currentThread().getName());
        synchronized (tallies) {
            tallies.put(thread, tallies.getOrDefault(thread, new Tally(0, 0, 0, 0)).plus(durability, took, batch.size()));
        }
    }

    /**
     * The backend's own cursor (one iterator, one read transaction, positioned again per seek), as
     * the queue has it without this wrapper: a forwarding store's default cursor opens a scan per
     * seek, which made the profile's tick and marker cleanup pay for an iterator per tenant read.
     */
    @Override
    public Cursor cursor(String family) {
        return delegate().cursor(family);
    }

    /** The tallies since the last call, by thread; starts counting afresh. */
    Map<String, Tally> take() {
        synchronized (tallies) {
            Map<String, Tally> out = new TreeMap<>(tallies);
            tallies.clear();
            return out;
        }
    }
}
