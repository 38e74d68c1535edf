package io.ankusa.tests.bench;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.support.ForwardingStore;
import java.util.ArrayList;
import java.util.List;

/**
 * A forwarding store that keeps every batch committed while it is on, with its durability, so a
 * bench can replay exactly those writes on a bare store ({@link #replay}). Keeping a batch costs a
 * reference (the queue builds a new batch per commit). Thread-safe.
 */
final class CommitLog extends ForwardingStore {

    /** A committed batch. */
    record Commit(WriteBatch batch, Durability durability) {
    }

    private final List<Commit> commits = new ArrayList<>();
    private volatile boolean on;

    CommitLog(Store delegate) {
        super(delegate);
    }

    /** Starts keeping commits, forgetting earlier ones. */
    void start() {
        synchronized (commits) {
            commits.clear();
        }
        on = true;
    }

    /** Stops and returns the commits kept since {@link #start()}, in commit order. */
    List<Commit> stop() {
        on = false;
        synchronized (commits) {
            return List.copyOf(commits);
        }
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        super.commit(batch, durability);
        if (on) {
            // Logged once committed: batches committed concurrently are logged in the order they
            // returned, which may differ from the store's; they touch different rows, and counter
            // merges commute, so replaying them in this order writes the same.
            synchronized (commits) {
                commits.add(new Commit(batch, durability));
            }
        }
    }

    /** Commits {@code log} to {@code store} in order from this thread; returns the seconds it took. */
    static double replay(List<Commit> log, Store store) {
        long start = System.nanoTime();
        for (Commit c : log) {
            store.commit(c.batch(), c.durability());
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
