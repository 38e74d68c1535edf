package io.ankusa.tests.support;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A forwarding {@link Store} that logs every data call (reads, scans, commits) with its family,
 * keys, range and batch, so a test can say exactly what an operation touched. Thread-safe; a test
 * can also wait for a call to happen ({@link #await}) instead of sleeping.
 */
public final class RecordingStore extends ForwardingStore {

    /**
     * One call.
     *
     * @param method    {@code get}, {@code multiGet}, {@code counter}, {@code counters}, {@code scan} or {@code commit}
     * @param family    the family read (empty for a commit)
     * @param keys      the keys read (empty for a scan or a commit)
     * @param range     the range scanned (scans only)
     * @param direction the scan direction (scans only)
     * @param batch     the batch committed (commits only)
     */
    public record Call(String method, String family, List<byte[]> keys, Optional<KeyRange> range,
            Optional<Direction> direction, Optional<WriteBatch> batch) {

        /** Whether this call read or wrote {@code family} (a commit: any op of the batch). */
        public boolean touches(String family) {
            return this.family.equals(family) || batch.map(b -> b.ops().stream().anyMatch(op -> op.family().equals(family)))
                    .orElse(false);
        }
    }

    private final List<Call> calls = new ArrayList<>();

    /** Records the calls made to {@code delegate}. */
    public RecordingStore(Store delegate) {
        super(delegate);
    }

    private void record(Call call) {
        synchronized (calls) {
            calls.add(call);
            calls.notifyAll();
        }
    }

    /** Every call since the last {@link #clear()}, in order. */
    public List<Call> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    /** The calls of one method. */
    public List<Call> calls(String method) {
        return calls().stream().filter(c -> c.method().equals(method)).toList();
    }

    /** Forgets the calls so far. */
    public void clear() {
        synchronized (calls) {
            calls.clear();
        }
    }

    /** Waits until a call matching {@code wanted} has been recorded (since the last clear); false on timeout. */
    public boolean await(Predicate<Call> wanted, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (calls) {
            while (calls.stream().noneMatch(wanted)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                calls.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    @Override
    public Optional<byte[]> get(String family, byte[] key) {
        record(new Call("get", family, List.of(key.clone()), Optional.empty(), Optional.empty(), Optional.empty()));
        return super.get(family, key);
    }

    @Override
    public List<Optional<byte[]>> multiGet(String family, List<byte[]> keys) {
        record(new Call("multiGet", family, keys.stream().map(byte[]::clone).toList(), Optional.empty(), Optional.empty(),
                Optional.empty()));
        return super.multiGet(family, keys);
    }

    @Override
    public long counter(String family, byte[] key) {
        record(new Call("counter", family, List.of(key.clone()), Optional.empty(), Optional.empty(), Optional.empty()));
        return super.counter(family, key);
    }

    @Override
    public long[] counters(String family, List<byte[]> keys) {
        record(new Call("counters", family, keys.stream().map(byte[]::clone).toList(), Optional.empty(), Optional.empty(),
                Optional.empty()));
        return super.counters(family, keys);
    }

    @Override
    public Scan scan(String family, KeyRange range, Direction direction) {
        record(new Call("scan", family, List.of(), Optional.of(range), Optional.of(direction), Optional.empty()));
        return super.scan(family, range, direction);
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        super.commit(batch, durability);
        record(new Call("commit", "", List.of(), Optional.empty(), Optional.empty(), Optional.of(batch)));
    }
}
