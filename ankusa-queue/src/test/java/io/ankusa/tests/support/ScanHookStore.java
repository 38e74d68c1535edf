package io.ankusa.tests.support;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.store.Direction;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A store that runs an action once around the next scan of the {@code index} family: before it
 * opens ({@link #beforeNextIndexScan}) or after it closes ({@link #afterNextIndexScan}), on the
 * scanning thread. For races told in order: a letter dead-lettered after a replay began, a row
 * revived by someone else between a replay's read and its commit.
 */
public final class ScanHookStore extends ForwardingStore {

    private final AtomicReference<Runnable> before = new AtomicReference<>();
    private final AtomicReference<Runnable> after = new AtomicReference<>();

    /** Forwards to {@code delegate}. */
    public ScanHookStore(Store delegate) {
        super(delegate);
    }

    /** Runs {@code action} right before the next scan of the index family opens. */
    public void beforeNextIndexScan(Runnable action) {
        before.set(action);
    }

    /** Runs {@code action} right after the next scan of the index family is closed. */
    public void afterNextIndexScan(Runnable action) {
        after.set(action);
    }

    @Override
    public Scan scan(String family, KeyRange range, Direction direction) {
        if (!family.equals(ColumnFamilies.INDEX)) {
            return super.scan(family, range, direction);
        }
        Runnable first = before.getAndSet(null);
        if (first != null) {
            first.run();
        }
        Runnable then = after.getAndSet(null);
        Scan scan = super.scan(family, range, direction);
        if (then == null) {
            return scan;
        }
        return new Scan() {
            private boolean closed;

            @Override
            public boolean hasNext() {
                return scan.hasNext();
            }

            @Override
            public KeyValue next() {
                return scan.next();
            }

            @Override
            public void close() {
                scan.close();
                if (!closed) {
                    closed = true;
                    then.run();
                }
            }
        };
    }
}
