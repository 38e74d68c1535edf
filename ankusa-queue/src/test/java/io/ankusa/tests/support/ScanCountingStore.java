package io.ankusa.tests.support;

import io.ankusa.store.Direction;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A forwarding {@link Store} that logs each scan with how many entries the caller took from it:
 * what tells "read a tenant's first due row" from "folded the tenant's due rows", which
 * {@link RecordingStore} (ranges only) cannot. Thread-safe.
 */
public final class ScanCountingStore extends ForwardingStore {

    /**
     * One scan.
     *
     * @param family    the family scanned
     * @param range     its range
     * @param direction its direction
     * @param taken     entries handed out so far
     */
    public record CountedScan(String family, KeyRange range, Direction direction, AtomicInteger taken) {

        /** Entries the caller took from the scan. */
        public int entries() {
            return taken.get();
        }
    }

    private final List<CountedScan> scans = new ArrayList<>();

    /** Counts the scans of {@code delegate}. */
    public ScanCountingStore(Store delegate) {
        super(delegate);
    }

    /** Every scan since the last {@link #clear()}, in order. */
    public List<CountedScan> scans() {
        synchronized (scans) {
            return List.copyOf(scans);
        }
    }

    /** Forgets the scans so far. */
    public void clear() {
        synchronized (scans) {
            scans.clear();
        }
    }

    @Override
    public Scan scan(String family, KeyRange range, Direction direction) {
        CountedScan counted = new CountedScan(family, range, direction, new AtomicInteger());
        synchronized (scans) {
            scans.add(counted);
        }
        Scan scan = super.scan(family, range, direction);
        return new Scan() {
            @Override
            public boolean hasNext() {
                return scan.hasNext();
            }

            @Override
            public KeyValue next() {
                KeyValue next = scan.next();
                counted.taken().incrementAndGet();
                return next;
            }

            @Override
            public void close() {
                scan.close();
            }
        };
    }
}
