package io.ankusa.tests.support;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.StoreError;
import io.ankusa.store.StoreException;
import io.ankusa.store.WriteBatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A forwarding {@link Store} that, once armed, refuses the n-th matching commit with a
 * {@link StoreException} before it reaches the store (nothing of it is written), as a crash or a
 * failing disk would cut an operation short; later commits go through.
 */
public final class InterruptingStore extends ForwardingStore {

    private final AtomicInteger countdown = new AtomicInteger(-1);
    private volatile Predicate<WriteBatch> matching = b -> true;

    /** Wraps {@code delegate}, unarmed. */
    public InterruptingStore(Store delegate) {
        super(delegate);
    }

    /** Refuses the {@code n}-th (1-based) commit from now that {@code matching} accepts. */
    public void failCommit(int n, Predicate<WriteBatch> matching) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1: " + n);
        }
        this.matching = matching;
        countdown.set(n);
    }

    /** Whether the armed failure happened. */
    public boolean fired() {
        return countdown.get() == 0;
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        if (countdown.get() > 0 && matching.test(batch) && countdown.decrementAndGet() == 0) {
            throw new StoreException(StoreError.IO, "commit interrupted by the test");
        }
        super.commit(batch, durability);
    }
}
