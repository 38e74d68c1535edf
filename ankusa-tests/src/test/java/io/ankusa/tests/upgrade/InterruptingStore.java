package io.ankusa.tests.upgrade;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A forwarding {@link Store} that closes the store it wraps right after its n-th commit, as an
 * operator stopping a process between two migration steps would, and records the ranges scanned.
 * Everything after the close fails with {@link io.ankusa.store.StoreClosedException}, exactly as
 * on a closed store.
 */
final class InterruptingStore implements Store {

    /**
     * One scan.
     *
     * @param family the column family
     * @param range  the range
     */
    record ScanCall(String family, KeyRange range) {
    }

    private final Store delegate;
    private final int closeAfterCommits;
    private final List<ScanCall> scans = new ArrayList<>();
    private int commits;

    /** Wraps {@code delegate}; closes it after commit number {@code closeAfterCommits} (never if 0 or less). */
    InterruptingStore(Store delegate, int closeAfterCommits) {
        this.delegate = delegate;
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
    public String backend() {
        return delegate.backend();
    }

    @Override
    public Path directory() {
        return delegate.directory();
    }

    @Override
    public List<FamilySpec> families() {
        return delegate.families();
    }

    @Override
    public Optional<byte[]> get(String family, byte[] key) {
        return delegate.get(family, key);
    }

    @Override
    public List<Optional<byte[]>> multiGet(String family, List<byte[]> keys) {
        return delegate.multiGet(family, keys);
    }

    @Override
    public long counter(String family, byte[] key) {
        return delegate.counter(family, key);
    }

    @Override
    public long[] counters(String family, List<byte[]> keys) {
        return delegate.counters(family, keys);
    }

    @Override
    public Scan scan(String family, KeyRange range, Direction direction) {
        scans.add(new ScanCall(family, range));
        return delegate.scan(family, range, direction);
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        delegate.commit(batch, durability);
        commits++;
        if (commits == closeAfterCommits) {
            delegate.close();
        }
    }

    @Override
    public void checkpoint(Path target) {
        delegate.checkpoint(target);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
