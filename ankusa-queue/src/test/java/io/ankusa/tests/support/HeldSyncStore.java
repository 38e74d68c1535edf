package io.ankusa.tests.support;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A forwarding {@link Store} that logs each commit's durability and families, and can hold the
 * next synced commit (before it reaches the store) until {@link #release()}: a test sees what
 * the queue does while an fsync is under way.
 */
public final class HeldSyncStore extends ForwardingStore {

    /**
     * One commit as the store received it.
     *
     * @param durability its durability
     * @param puts       the family of each put, in batch order
     * @param prefixes   the first key byte of each put, in batch order
     */
    public record Commit(Durability durability, List<String> puts, List<Byte> prefixes) {

        /**
         * Whether a put into {@code family} has a key starting with {@code prefix}.
         *
         * @param family a column family
         * @param prefix a key's first byte
         * @return whether this commit made such a put
         */
        public boolean puts(String family, byte prefix) {
            for (int i = 0; i < puts.size(); i++) {
                if (puts.get(i).equals(family) && prefixes.get(i) == prefix) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Puts into {@code family}.
         *
         * @param family a column family
         * @return how many puts of this commit went to it
         */
        public long putsInto(String family) {
            return puts.stream().filter(family::equals).count();
        }
    }

    private final List<Commit> commits = new ArrayList<>();
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean armed;

    /**
     * Wraps {@code delegate}, holding nothing.
     *
     * @param delegate the store written to
     */
    public HeldSyncStore(Store delegate) {
        super(delegate);
    }

    /** The next synced commit waits for {@link #release()}. */
    public void holdNextSync() {
        armed = true;
    }

    /**
     * Waits until the held synced commit has been entered.
     *
     * @throws InterruptedException when interrupted
     */
    public void awaitHeld() throws InterruptedException {
        if (!entered.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("no synced commit was held");
        }
    }

    /** Lets the held commit go on. */
    public void release() {
        released.countDown();
    }

    /**
     * Waits until at least {@code n} puts into {@code family} were committed (any durability).
     *
     * @param family a column family
     * @param n      how many puts
     * @throws InterruptedException when interrupted
     */
    public synchronized void awaitPuts(String family, long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (commits.stream().mapToLong(c -> c.putsInto(family)).sum() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError(n + " puts into " + family + " never came; commits: " + commits);
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /**
     * The commits so far, in order.
     *
     * @return a copy of the log
     */
    public synchronized List<Commit> commits() {
        return List.copyOf(commits);
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        if (durability == Durability.SYNC && armed) {
            armed = false;
            entered.countDown();
            try {
                if (!released.await(60, TimeUnit.SECONDS)) {
                    throw new AssertionError("the held sync was never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        super.commit(batch, durability);
        List<WriteBatch.Put> puts = batch.ops().stream().filter(op -> op instanceof WriteBatch.Put)
                .map(op -> (WriteBatch.Put) op).toList();
        Commit commit = new Commit(durability, puts.stream().map(WriteBatch.Put::family).toList(),
                puts.stream().map(p -> p.key()[0]).toList());
        synchronized (this) {
            commits.add(commit);
            notifyAll();
        }
    }
}
