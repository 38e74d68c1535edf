package io.ankusa.tests.support;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A {@link Store} that forwards every call to another: the seam test wrappers override. */
public abstract class ForwardingStore implements Store {

    private final Store delegate;

    /** Forwards to {@code delegate}. */
    protected ForwardingStore(Store delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The wrapped store. */
    public Store delegate() {
        return delegate;
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
        return delegate.scan(family, range, direction);
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        delegate.commit(batch, durability);
    }

    @Override
    public long sizeBytes() {
        return delegate.sizeBytes();
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
