package io.ankusa.tests.support;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.WriteBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A forwarding {@link Store} that can hold the next unsynced commit that puts into a family until
 * {@link #release()}, then write it or fail it; and that logs the keys every {@code multiGet}
 * read: a test sees what the ingest writer does while a batch is being written.
 */
public final class HeldWriteStore extends ForwardingStore {

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private final List<String> readFamilies = new ArrayList<>();
    private final List<byte[]> readKeys = new ArrayList<>();
    private volatile String armedFamily;
    private volatile boolean failIt;

    /**
     * Wraps {@code delegate}, holding nothing.
     *
     * @param delegate the store written to
     */
    public HeldWriteStore(Store delegate) {
        super(delegate);
    }

    /**
     * The next unsynced commit with a put into {@code family} waits for {@link #release()}.
     *
     * @param family a column family
     * @param fail   whether it then fails with a {@link StoreException} ({@code IO}) instead of writing
     */
    public void holdNextWrite(String family, boolean fail) {
        this.failIt = fail;
        this.armedFamily = family;
    }

    /**
     * Waits until the held commit has been entered.
     *
     * @throws InterruptedException when interrupted
     */
    public void awaitHeld() throws InterruptedException {
        if (!entered.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("no commit was held");
        }
    }

    /** Lets the held commit go on. */
    public void release() {
        released.countDown();
    }

    /**
     * Waits until a {@code multiGet} of {@code family} read {@code key}.
     *
     * @param family a column family
     * @param key    a key
     * @throws InterruptedException when interrupted
     */
    public synchronized void awaitRead(String family, byte[] key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!wasRead(family, key)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no multiGet of " + family + " read the key");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    private boolean wasRead(String family, byte[] key) {
        for (int i = 0; i < readKeys.size(); i++) {
            if (readFamilies.get(i).equals(family) && Arrays.equals(readKeys.get(i), key)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public List<Optional<byte[]>> multiGet(String family, List<byte[]> keys) {
        List<Optional<byte[]>> values = super.multiGet(family, keys);
        synchronized (this) {
            for (byte[] key : keys) {
                readFamilies.add(family);
                readKeys.add(key.clone());
            }
            notifyAll();
        }
        return values;
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        String family = armedFamily;
        if (family != null && durability == Durability.ASYNC && putsInto(batch, family)) {
            armedFamily = null;
            entered.countDown();
            try {
                if (!released.await(60, TimeUnit.SECONDS)) {
                    throw new AssertionError("the held commit was never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failIt) {
                throw new StoreException(StoreError.IO, "injected by the test: the write failed");
            }
        }
        super.commit(batch, durability);
    }

    private static boolean putsInto(WriteBatch batch, String family) {
        return batch.ops().stream().anyMatch(op -> op instanceof WriteBatch.Put put && put.family().equals(family));
    }
}
