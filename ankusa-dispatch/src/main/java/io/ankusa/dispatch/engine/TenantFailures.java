package io.ankusa.dispatch.engine;

import io.ankusa.dispatch.sink.SinkOutcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Recent attempts and failures per tenant, in two one-minute windows of the scheduler's clock (the
 * current and the previous), for a failure rate that follows what a tenant's endpoints do now. A
 * tenant is kept while it had an attempt in those two minutes: the first attempt of each new window
 * forgets the tenants with none (one pass over the map a minute, on that attempt's thread), so
 * memory follows the tenants attempted lately, not the tenants known, whether or not anyone reads.
 * Written by the sinks' threads (one small synchronized update per ended attempt), read by the
 * health's readers.
 */
final class TenantFailures {

    /** One window's length. */
    static final long WINDOW_NANOS = 60_000_000_000L;

    /**
     * A tenant's two windows.
     */
    private static final class Windows {
        private long window;
        private long attempts;
        private long failures;
        private long previousAttempts;
        private long previousFailures;

        synchronized void add(long now, boolean failed) {
            roll(now);
            attempts++;
            failures += failed ? 1 : 0;
        }

        /** {attempts, failures} of the two windows as of {@code now}. */
        synchronized long[] read(long now) {
            roll(now);
            return new long[] {attempts + previousAttempts, failures + previousFailures};
        }

        private void roll(long now) {
            if (now == window) {
                return;
            }
            if (now == window + 1) {
                previousAttempts = attempts;
                previousFailures = failures;
            } else {
                previousAttempts = 0;
                previousFailures = 0;
            }
            attempts = 0;
            failures = 0;
            window = now;
        }
    }

    /**
     * One tenant's recent figures.
     *
     * @param ord      the tenant
     * @param attempts attempts ended in the two windows
     * @param failures those that did not deliver
     */
    record Recent(long ord, long attempts, long failures) {

        double rate() {
            return attempts == 0 ? 0 : (double) failures / attempts;
        }
    }

    private final ConcurrentHashMap<Long, Windows> byTenant = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;
    /** The window the last sweep of idle tenants ran in. */
    private final AtomicLong swept;

    TenantFailures(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.swept = new AtomicLong(window());
    }

    private long window() {
        return Math.floorDiv(nanoTime.getAsLong(), WINDOW_NANOS);
    }

    /** An attempt of tenant {@code ord} ended with {@code outcome}. */
    void ended(long ord, SinkOutcome outcome) {
        long now = window();
        long last = swept.get();
        if (now != last && swept.compareAndSet(last, now)) {
            forgetIdle(now);
        }
        byTenant.computeIfAbsent(ord, o -> new Windows()).add(now, !(outcome instanceof SinkOutcome.Delivered));
    }

    /** Forgets the tenants with no attempt in the two windows up to {@code now}. */
    private void forgetIdle(long now) {
        byTenant.entrySet().removeIf(e -> e.getValue().read(now)[0] == 0);
    }

    /** Tenants kept now. */
    int size() {
        return byTenant.size();
    }

    /** Tenant {@code ord}'s recent figures. */
    Recent of(long ord) {
        Windows w = byTenant.get(ord);
        if (w == null) {
            return new Recent(ord, 0, 0);
        }
        long[] read = w.read(window());
        return new Recent(ord, read[0], read[1]);
    }

    /**
     * Up to {@code limit} tenants with at least {@code minAttempts} recent attempts and a failure,
     * by failure rate, highest first (then by failures). Costs one pass over the tenants attempted lately.
     */
    List<Recent> worst(int limit, int minAttempts) {
        long now = window();
        List<Recent> ranked = new ArrayList<>();
        for (Map.Entry<Long, Windows> e : byTenant.entrySet()) {
            long[] read = e.getValue().read(now);
            if (read[0] >= minAttempts && read[1] > 0) {
                ranked.add(new Recent(e.getKey(), read[0], read[1]));
            }
        }
        ranked.sort(Comparator.comparingDouble(Recent::rate).reversed()
                .thenComparing(Comparator.comparingLong(Recent::failures).reversed())
                .thenComparingLong(Recent::ord));
        return ranked.size() > limit ? List.copyOf(ranked.subList(0, limit)) : ranked;
    }
}
