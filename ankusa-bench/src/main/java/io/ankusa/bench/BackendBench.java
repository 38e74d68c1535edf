package io.ankusa.bench;

import io.ankusa.store.Bytes;
import io.ankusa.store.Durability;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import io.ankusa.store.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Measures one backend in a fresh directory: synced and unsynced commits of 256 puts + 256
 * merges, a point multi-get of 6 counters, and a 1 000-key forward scan. One warm-up round, then
 * {@code rounds} measured ones; each figure is the median over the rounds. Every read is checked
 * against what was written, and the counters once more after a reopen; a wrong answer is reported
 * to {@code broken} (a bench that measures a broken store measures nothing).
 */
final class BackendBench {

    static final int OPS_PER_KIND = 256;
    static final int SYNC_COMMITS = 100;
    static final int ASYNC_COMMITS = 200;
    static final int LOOKUPS = 10_000;
    static final int SCANS = 200;
    static final int SCAN_LENGTH = 1_000;
    static final int COUNTER_KEYS = 1_024;

    private static final String HOOKS = "hooks";
    private static final String COUNTERS = "counters";
    private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain(HOOKS), FamilySpec.counter(COUNTERS));

    /** The medians of one backend. */
    record Result(String backend, double syncCommitsPerSecond, double asyncCommitsPerSecond,
            double multiGetP50Micros, double multiGetP99Micros, double scanP50Micros) {

        double syncOpsPerSecond() {
            return syncCommitsPerSecond * 2 * OPS_PER_KIND;
        }

        double asyncOpsPerSecond() {
            return asyncCommitsPerSecond * 2 * OPS_PER_KIND;
        }
    }

    private final String backend;
    private final Path directory;
    private final int rounds;
    private final Consumer<String> broken;
    private final SplittableRandom random = new SplittableRandom(20261130);
    private final long[] expectedCounters = new long[COUNTER_KEYS];
    private long nextSeq;

    BackendBench(String backend, Path directory, int rounds, Consumer<String> broken) {
        this.backend = backend;
        this.directory = directory;
        this.rounds = rounds;
        this.broken = broken;
    }

    Result run() {
        double[] sync = new double[rounds];
        double[] async = new double[rounds];
        double[] p50 = new double[rounds];
        double[] p99 = new double[rounds];
        double[] scan = new double[rounds];
        try (Store store = Stores.open(backend, StoreOptions.create(directory, FAMILIES))) {
            for (int round = -1; round < rounds; round++) {
                double s = commitsPerSecond(store, Durability.SYNC, SYNC_COMMITS);
                double a = commitsPerSecond(store, Durability.ASYNC, ASYNC_COMMITS);
                double[] lookups = multiGetMicros(store);
                double scanMicros = scanMicros(store);
                if (round >= 0) {
                    sync[round] = s;
                    async[round] = a;
                    p50[round] = lookups[0];
                    p99[round] = lookups[1];
                    scan[round] = scanMicros;
                }
            }
        }
        try (Store reopened = Stores.open(backend, StoreOptions.existing(directory, FAMILIES))) {
            long[] actual = reopened.counters(COUNTERS, counterKeys());
            if (!Arrays.equals(actual, expectedCounters)) {
                broken.accept(backend + ": counters differ from the sum of the merges after reopen");
            }
        }
        return new Result(backend, median(sync), median(async), median(p50), median(p99), median(scan));
    }

    private double commitsPerSecond(Store store, Durability durability, int commits) {
        List<WriteBatch> batches = new ArrayList<>(commits);
        for (int c = 0; c < commits; c++) {
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < OPS_PER_KIND; i++) {
                byte[] value = new byte[100];
                random.nextBytes(value);
                batch.put(HOOKS, hookKey(nextSeq++), value);
                int counter = random.nextInt(COUNTER_KEYS);
                long delta = random.nextInt(3) == 0 ? -1 : 1;
                expectedCounters[counter] += delta;
                batch.merge(COUNTERS, counterKey(counter), delta);
            }
            batches.add(batch);
        }
        long start = System.nanoTime();
        for (WriteBatch batch : batches) {
            store.commit(batch, durability);
        }
        return commits / ((System.nanoTime() - start) / 1e9);
    }

    private double[] multiGetMicros(Store store) {
        long[] nanos = new long[LOOKUPS];
        for (int i = 0; i < LOOKUPS; i++) {
            int[] picks = random.ints(6, 0, COUNTER_KEYS).toArray();
            List<byte[]> keys = Arrays.stream(picks).mapToObj(BackendBench::counterKey).toList();
            long start = System.nanoTime();
            long[] values = store.counters(COUNTERS, keys);
            nanos[i] = System.nanoTime() - start;
            for (int k = 0; k < picks.length; k++) {
                if (values[k] != expectedCounters[picks[k]]) {
                    broken.accept(backend + ": counter " + picks[k] + " read " + values[k] + ", expected "
                            + expectedCounters[picks[k]]);
                    return new double[] {0, 0};
                }
            }
        }
        Arrays.sort(nanos);
        return new double[] {nanos[LOOKUPS / 2] / 1e3, nanos[LOOKUPS * 99 / 100] / 1e3};
    }

    private double scanMicros(Store store) {
        long[] nanos = new long[SCANS];
        for (int i = 0; i < SCANS; i++) {
            long first = random.nextLong(nextSeq - SCAN_LENGTH + 1);
            KeyRange range = KeyRange.of(hookKey(first), hookKey(first + SCAN_LENGTH));
            int seen = 0;
            byte[] previous = null;
            long start = System.nanoTime();
            try (Scan scan = store.scan(HOOKS, range)) {
                while (scan.hasNext()) {
                    KeyValue kv = scan.next();
                    if (previous != null && Bytes.compare(previous, kv.key()) >= 0) {
                        seen = -1;
                        break;
                    }
                    previous = kv.key();
                    seen++;
                }
            }
            nanos[i] = System.nanoTime() - start;
            if (seen != SCAN_LENGTH) {
                broken.accept(backend + ": scan of " + range + " returned " + seen + " ordered rows, expected " + SCAN_LENGTH);
                return 0;
            }
        }
        Arrays.sort(nanos);
        return nanos[SCANS / 2] / 1e3;
    }

    private List<byte[]> counterKeys() {
        List<byte[]> keys = new ArrayList<>(COUNTER_KEYS);
        for (int i = 0; i < COUNTER_KEYS; i++) {
            keys.add(counterKey(i));
        }
        return keys;
    }

    private static byte[] hookKey(long seq) {
        byte[] key = new byte[9];
        key[0] = 'h';
        for (int i = 0; i < 8; i++) {
            key[8 - i] = (byte) (seq >>> (8 * i));
        }
        return key;
    }

    private static byte[] counterKey(int counter) {
        return new byte[] {'c', (byte) (counter >>> 8), (byte) counter};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
