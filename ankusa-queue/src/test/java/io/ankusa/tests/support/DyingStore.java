package io.ankusa.tests.support;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A forwarding {@link Store} whose next commit, once armed, throws an {@link Error} (as an
 * {@code OutOfMemoryError} would) instead of writing: optionally after holding the committing
 * thread until {@link #release()}, so a test can queue work behind it.
 */
public final class DyingStore extends ForwardingStore {

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean armed;
    private volatile boolean hold;

    /** Wraps {@code delegate}, unarmed. */
    public DyingStore(Store delegate) {
        super(delegate);
    }

    /** The next commit throws an {@link Error}; with {@code hold}, only after {@link #release()}. */
    public void arm(boolean hold) {
        this.hold = hold;
        this.armed = true;
    }

    /** Waits until the armed commit has been entered. */
    public void awaitEntered() throws InterruptedException {
        if (!entered.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the armed commit was never entered");
        }
    }

    /** Lets the held commit throw. */
    public void release() {
        released.countDown();
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        if (armed) {
            armed = false;
            entered.countDown();
            if (hold) {
                try {
                    if (!released.await(60, TimeUnit.SECONDS)) {
                        throw new AssertionError("never released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            throw new Error("injected by the test: the thread dies");
        }
        super.commit(batch, durability);
    }
}
