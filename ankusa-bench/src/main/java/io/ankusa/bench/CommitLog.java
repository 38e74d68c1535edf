package io.ankusa.bench;

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

    /**
     * A committed batch.
     *
     * @param batch      what was written
     * @param durability how
     * @param thread     the name of the thread that committed it, digits at its end dropped (who made
     *                   the commit: the tick, the settler, its sync thread, housekeeping, ingest)
     */
    record Commit(WriteBatch batch, Durability durability, String thread) {
    }

    /**
     * How many of {@code commits} each thread made, synced ones in brackets, busiest first: for
     * example {@code ankusa-dispatch-settler 812 (0)}.
     *
     * @param commits commits kept
     * @return one entry per thread
     */
    static String byThread(List<Commit> commits) {
        java.util.Map<String, long[]> counts = new java.util.TreeMap<>();
        for (Commit c : commits) {
            long[] n = counts.computeIfAbsent(c.thread(), t -> new long[2]);
            n[0]++;
            if (c.durability() == Durability.SYNC) {
                n[1]++;
            }
        }
        return counts.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]))
                .map(e -> e.getKey() + " " + e.getValue()[0] + " (" + e.getValue()[1] + ")")
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * The operations of {@code commits} per {@code units} (a hook or a delivery), by family and
     * kind, with the bytes they carry: {@code family put/delete/merge/range bytes}, the families
     * with most operations first. What a unit costs the store, whoever made the commit.
     */
    static String opsByFamily(List<Commit> commits, long units) {
        java.util.Map<String, long[]> counts = new java.util.TreeMap<>();
        for (Commit c : commits) {
            for (WriteBatch.Op op : c.batch().ops()) {
                String family;
                int kind;
                long bytes;
                if (op instanceof WriteBatch.Put p) {
                    family = withPrefix(p.family(), p.key());
                    kind = 0;
                    bytes = p.key().length + p.value().length;
                } else if (op instanceof WriteBatch.Delete d) {
                    family = withPrefix(d.family(), d.key());
                    kind = 1;
                    bytes = d.key().length;
                } else if (op instanceof WriteBatch.Merge m) {
                    family = withPrefix(m.family(), m.key());
                    kind = 2;
                    bytes = m.key().length + Long.BYTES;
                } else {
                    WriteBatch.DeleteRange r = (WriteBatch.DeleteRange) op;
                    family = r.family();
                    kind = 3;
                    bytes = r.from().length + r.to().length;
                }
                long[] n = counts.computeIfAbsent(family, f -> new long[5]);
                n[kind]++;
                n[4] += bytes;
            }
        }
        double per = Math.max(1, units);
        return counts.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue()[0] + b.getValue()[1] + b.getValue()[2] + b.getValue()[3],
                        a.getValue()[0] + a.getValue()[1] + a.getValue()[2] + a.getValue()[3]))
                .map(e -> String.format(java.util.Locale.ROOT, "%s %.2f/%.2f/%.2f/%.3f %.0f B", e.getKey(),
                        e.getValue()[0] / per, e.getValue()[1] / per, e.getValue()[2] / per, e.getValue()[3] / per,
                        e.getValue()[4] / per))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /** The index family's keys by their one-byte prefix ({@code index:D} for due rows…); other families whole. */
    private static String withPrefix(String family, byte[] key) {
        return family.equals("index") && key.length > 0 ? family + ":" + (char) key[0] : family;
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
                commits.add(new Commit(batch, durability, Thread.currentThread().getName().replaceAll("[-0-9]+$", "")));
            }
        }
    }

    /**
     * The store's own best at what synced ingest asks of it: every non-empty batch of {@code log}
     * committed unsynced, in order, from this thread, while a second thread syncs (a synced empty
     * commit: a WAL fsync or an LMDB environment sync, covering every batch written before it
     * started) whenever batches were written since its last sync began, as the queue's sync thread
     * does — the same writes under the same rule as the queue's writer and sync thread, without the
     * queue's own work. The recorded empty commits are dropped: how many syncs the queue made
     * depends on its own speed (a slower queue makes fewer, larger sync groups), so replaying them
     * would give a slower queue a cheaper ceiling. Returns the seconds from the first write until a
     * sync that started after the last write returned.
     */
    static Overlapped replayOverlapped(List<Commit> log, Store store) {
        java.util.concurrent.BlockingQueue<Boolean> written = new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.concurrent.atomic.AtomicLong syncs = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicReference<RuntimeException> failure = new java.util.concurrent.atomic.AtomicReference<>();
        long start = System.nanoTime();
        Thread syncer = new Thread(() -> {
            List<Boolean> group = new ArrayList<>();
            try {
                while (true) {
                    group.clear();
                    group.add(written.take());
                    written.drainTo(group);
                    // Boolean.FALSE: the last batch was written before it was queued; sync once more and stop.
                    store.commit(new WriteBatch(), Durability.SYNC);
                    syncs.incrementAndGet();
                    if (group.contains(Boolean.FALSE)) {
                        return;
                    }
                }
            } catch (RuntimeException e) {
                failure.set(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "replay-sync");
        syncer.start();
        long batches = 0;
        try {
            for (Commit c : log) {
                if (!c.batch().isEmpty()) {
                    store.commit(c.batch(), Durability.ASYNC);
                    batches++;
                    written.add(Boolean.TRUE);
                }
            }
        } finally {
            written.add(Boolean.FALSE);
        }
        try {
            syncer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        return new Overlapped((System.nanoTime() - start) / 1e9, batches, syncs.get());
    }

    /** An overlapped replay: its seconds, the batches written and the syncs made. */
    record Overlapped(double seconds, long batches, long syncs) {
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
