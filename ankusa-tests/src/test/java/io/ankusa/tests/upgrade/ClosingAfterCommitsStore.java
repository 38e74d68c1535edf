package io.ankusa.tests.upgrade;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.support.ForwardingStore;
import java.util.ArrayList;
import java.util.List;

/**
 * A forwarding {@link Store} that closes the store it wraps right after its n-th commit, as an
 * operator stopping a process between two migration steps would, and records the ranges scanned.
 * Everything after the close fails with {@link io.ankusa.store.StoreClosedException}, exactly as
 * on a closed store.
 */
final class ClosingAfterCommitsStore extends ForwardingStore {

    /**
     * One scan.
     *
     * @param family the column family
     * @param range  the range
     */
    record ScanCall(String family, KeyRange range) {
    }

    private final int closeAfterCommits;
    private final List<ScanCall> scans = new ArrayList<>();
    private int commits;

    /** Wraps {@code delegate}; closes it after commit number {@code closeAfterCommits} (never if 0 or less). */
    ClosingAfterCommitsStore(Store delegate, int closeAfterCommits) {
        super(delegate);
        this.closeAfterCommits = closeAfterCommits;
    }

    /** Commits that went through. */
    int commits() {
        return commits;
    }

    /** Scans made, in order. */
    List<ScanCall> scans() {
        return List.copyOf(scans);
    }

    @Override
    public Scan scan(String family, KeyRange range, Direction direction) {
        scans.add(new ScanCall(family, range));
        return super.scan(family, range, direction);
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        super.commit(batch, durability);
        commits++;
        if (commits == closeAfterCommits) {
            delegate().close();
        }
    }
}
