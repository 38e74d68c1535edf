package io.ankusa.store.rocksdb;

import static io.ankusa.store.rocksdb.TestStores.COUNTS;
import static io.ankusa.store.rocksdb.TestStores.FAMILIES;
import static io.ankusa.store.rocksdb.TestStores.create;
import static io.ankusa.store.rocksdb.TestStores.drain;
import static io.ankusa.store.rocksdb.TestStores.key;
import static io.ankusa.store.rocksdb.TestStores.open;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.WriteBatch;
import io.ankusa.store.spi.CounterCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** RocksDB's native {@code UInt64AddOperator} as the SPI's signed 64-bit counter. */
class CounterMergeTest {

    @TempDir
    Path dir;

    private static void add(RocksStore store, String key, long delta) {
        store.commit(new WriteBatch().merge(COUNTS, key(key), delta), Durability.ASYNC);
    }

    @Test
    void negativeDeltasWrapBackToTheSignedSum() {
        try (RocksStore store = create(dir)) {
            add(store, "a", 5);
            add(store, "a", -2);
            assertThat(store.counter(COUNTS, key("a"))).isEqualTo(3);
            add(store, "a", -10);
            assertThat(store.counter(COUNTS, key("a"))).isEqualTo(-7);
            add(store, "a", Long.MIN_VALUE);
            add(store, "a", Long.MIN_VALUE);
            assertThat(store.counter(COUNTS, key("a"))).as("two's complement wraps like a long").isEqualTo(-7);
        }
    }

    @Test
    void countersGoPastTwoToTheThirtyOne() {
        try (RocksStore store = create(dir)) {
            add(store, "bytes", 3_000_000_000L);
            add(store, "bytes", Integer.MAX_VALUE);
            add(store, "bytes", 2_000_000_000L);
            long expected = 5_000_000_000L + Integer.MAX_VALUE;
            assertThat(store.counter(COUNTS, key("bytes"))).isEqualTo(expected);
            add(store, "bytes", -expected - 1);
            assertThat(store.counter(COUNTS, key("bytes"))).isEqualTo(-1);
        }
    }

    @Test
    void absentRowReadsZeroAndCountersKeepKeyOrder() {
        try (RocksStore store = create(dir)) {
            store.commit(new WriteBatch().merge(COUNTS, key("x"), 7).merge(COUNTS, key("z"), -4)
                    .merge(COUNTS, key("x"), 1), Durability.SYNC);
            assertThat(store.counter(COUNTS, key("y"))).isZero();
            assertThat(store.counters(COUNTS, List.of(key("z"), key("y"), key("x")))).containsExactly(-4, 0, 8);
        }
    }

    @Test
    void scanOfACounterFamilyYieldsLittleEndianSums() {
        try (RocksStore store = create(dir)) {
            add(store, "a", 1);
            add(store, "a", 300);
            add(store, "b", -1);
            List<KeyValue> rows = drain(store.scan(COUNTS, KeyRange.all()));
            assertThat(rows).containsExactly(
                    new KeyValue(key("a"), CounterCodec.encode(301)),
                    new KeyValue(key("b"), CounterCodec.encode(-1)));
            assertThat(rows.get(0).value()).containsExactly(0x2d, 0x01, 0, 0, 0, 0, 0, 0);
        }
    }

    @Test
    void sumsSurviveReplayFlushAndCheckpoint() {
        Path copy = dir.resolve("copy");
        try (RocksStore store = create(dir.resolve("store"))) {
            for (int i = 0; i < 1000; i++) {
                add(store, "n", i % 2 == 0 ? 3 : -1);
            }
            store.checkpoint(copy); // flushes the memtable: operands folded into an SST
            add(store, "n", 1_000_000);
        }
        try (RocksStore reopened = open(StoreOptions.existing(dir.resolve("store"), FAMILIES))) {
            assertThat(reopened.counter(COUNTS, key("n"))).isEqualTo(1000 + 1_000_000);
        }
        try (RocksStore checkpoint = open(StoreOptions.existing(copy, FAMILIES))) {
            assertThat(checkpoint.counter(COUNTS, key("n"))).isEqualTo(1000);
            add(checkpoint, "n", 5);
            assertThat(checkpoint.counter(COUNTS, key("n"))).isEqualTo(1005);
        }
    }

    /** With 0 RocksDB only appends operands; with 1 and 64 it folds them into values on write. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 64})
    void concurrentMergesStayExactWithAnyMaxSuccessiveMerges(int maxSuccessiveMerges) throws Exception {
        StoreOptions options = StoreOptions.create(dir, FAMILIES)
                .with(RocksSettings.COUNTER_MAX_SUCCESSIVE_MERGES, Integer.toString(maxSuccessiveMerges));
        int threads = 4;
        int commitsPerThread = 2_000;
        try (RocksStore store = open(options)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long delta = t + 1;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < commitsPerThread; i++) {
                            store.commit(new WriteBatch().merge(COUNTS, key("hot"), delta)
                                    .merge(COUNTS, key("hot"), -1)
                                    .merge(COUNTS, key("cold" + (i % 10)), 1), Durability.ASYNC);
                        }
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            long expectedHot = (long) commitsPerThread * (0 + 1 + 2 + 3);
            assertThat(store.counter(COUNTS, key("hot"))).isEqualTo(expectedHot);
            long cold = 0;
            for (long c : store.counters(COUNTS, List.of(key("cold0"), key("cold5"), key("cold9")))) {
                cold += c;
            }
            assertThat(cold).isEqualTo(3L * threads * commitsPerThread / 10);
        }
        try (RocksStore reopened = open(StoreOptions.existing(dir, FAMILIES))) {
            assertThat(reopened.counter(COUNTS, key("hot"))).isEqualTo((long) commitsPerThread * 6);
        }
    }
}
