package io.ankusa.tests.support;

import io.ankusa.store.Durability;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * A forwarding {@link Store} that, once armed, runs an action on the committing thread right after
 * the first commit a predicate accepts has been written: a test places another writer's work
 * between two steps of a long operation (an erase's steps, say) without timing.
 */
public final class AfterCommitStore extends ForwardingStore {

    private volatile Predicate<WriteBatch> matching;
    private volatile Runnable action;
    private final AtomicBoolean fired = new AtomicBoolean();

    /**
     * Wraps {@code delegate}, unarmed.
     *
     * @param delegate the store written to
     */
    public AfterCommitStore(Store delegate) {
        super(delegate);
    }

    /**
     * Runs {@code action} once, right after the first commit from now that {@code matching} accepts.
     *
     * @param matching which commit
     * @param action   what runs after it, on the committing thread
     */
    public void afterCommit(Predicate<WriteBatch> matching, Runnable action) {
        this.action = Objects.requireNonNull(action, "action");
        this.matching = Objects.requireNonNull(matching, "matching");
    }

    /**
     * Whether the action ran.
     *
     * @return true once it ran
     */
    public boolean fired() {
        return fired.get();
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        super.commit(batch, durability);
        Predicate<WriteBatch> armed = matching;
        if (armed != null && armed.test(batch) && fired.compareAndSet(false, true)) {
            action.run();
        }
    }
}
