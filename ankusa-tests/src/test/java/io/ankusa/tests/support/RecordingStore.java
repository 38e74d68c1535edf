package io.ankusa.tests.support;

import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A forwarding {@link Store} that logs every SPI call while recording is on: what a test uses to
 * prove which reads an operation makes ("the gauge tick folds no family"). Everything is passed to
 * the wrapped store unchanged; a scan is logged with its range and the number of entries the caller
 * pulled from it. Thread-safe.
 *
 * <p>Open a queue over one with
 * {@code QueueEngine.open(config, Migrations.NONE, RecordingStore::new)}.
 */
public final class RecordingStore implements Store {

    /** One call to the store. */
    public sealed interface Call {
        /** The column family it named (empty for calls that name none). */
        String family();
    }

    /** {@link Store#get}. */
    public record Get(String family, byte[] key) implements Call {
    }

    /** {@link Store#multiGet}. */
    public record MultiGet(String family, List<byte[]> keys) implements Call {
    }

    /** {@link Store#counter} and {@link Store#counters}. */
    public record CounterRead(String family, List<byte[]> keys) implements Call {
    }

    /** {@link Store#scan}: its range, direction, and how many entries were pulled so far. */
    public record ScanCall(String family, KeyRange range, Direction direction, AtomicInteger pulled) implements Call {
        /** Entries the caller took from the scan. */
        public int entries() {
            return pulled.get();
        }
    }

    /** {@link Store#commit}. */
    public record Commit(WriteBatch batch, Durability durability) implements Call {
        @Override
        public String family() {
            return "";
        }
    }

    /** {@link Store#checkpoint}. */
    public record Checkpoint(Path target) implements Call {
        @Override
        public String family() {
            return "";
        }
    }

    private final Store delegate;
    private final List<Call> calls = new ArrayList<>();
    private volatile boolean recording;

    /** Wraps {@code delegate}; recording starts off. */
    public RecordingStore(Store delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** Starts recording, dropping what was recorded before. */
    public void startRecording() {
        synchronized (calls) {
            calls.clear();
        }
        recording = true;
    }

    /** Stops recording and returns the calls made since {@link #startRecording()}. */
    public List<Call> stopRecording() {
        recording = false;
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    /** Runs {@code body} with recording on and returns the calls it (and any other thread meanwhile) made. */
    public List<Call> record(Runnable body) {
        startRecording();
        try {
            body.run();
        } finally {
            recording = false;
        }
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    private <C extends Call> C log(C call) {
        if (recording) {
            synchronized (calls) {
                calls.add(call);
            }
        }
        return call;
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
        log(new Get(family, key.clone()));
        return delegate.get(family, key);
    }

    @Override
    public List<Optional<byte[]>> multiGet(String family, List<byte[]> keys) {
        log(new MultiGet(family, keys.stream().map(byte[]::clone).toList()));
        return delegate.multiGet(family, keys);
    }

    @Override
    public long counter(String family, byte[] key) {
        log(new CounterRead(family, List.of(key.clone())));
        return delegate.counter(family, key);
    }

    @Override
    public long[] counters(String family, List<byte[]> keys) {
        log(new CounterRead(family, keys.stream().map(byte[]::clone).toList()));
        return delegate.counters(family, keys);
    }

    @Override
    public Scan scan(String family, KeyRange range, Direction direction) {
        ScanCall call = log(new ScanCall(family, range, direction, new AtomicInteger()));
        Scan scan = delegate.scan(family, range, direction);
        return new Scan() {
            @Override
            public boolean hasNext() {
                return scan.hasNext();
            }

            @Override
            public KeyValue next() {
                KeyValue next = scan.next();
                call.pulled().incrementAndGet();
                return next;
            }

            @Override
            public void close() {
                scan.close();
            }
        };
    }

    @Override
    public void commit(WriteBatch batch, Durability durability) {
        log(new Commit(batch, durability));
        delegate.commit(batch, durability);
    }

    @Override
    public void checkpoint(Path target) {
        log(new Checkpoint(target));
        delegate.checkpoint(target);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
