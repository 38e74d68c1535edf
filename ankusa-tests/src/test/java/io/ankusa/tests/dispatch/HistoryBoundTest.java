package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.DiskUsage;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.RetryPolicy;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.keys.AttemptKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.KeySpan;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.queue.upkeep.Housekeeping;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.testkit.ScriptedSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The attempt history's byte bound ({@code attempts.max-bytes}, docs/operations.md "Disk"): under a
 * steady load of deliveries, some retried, and housekeeping's pruning run once per step on the
 * test clock, the history stays within the bound plus what the steps between two prunes add, ends
 * within the bound, loses its oldest entries first, and its {@code history_bytes} counter always
 * equals a fold of the history's keys.
 */
class HistoryBoundTest {

    private static final long MAX_BYTES = 48 * 1024;
    private static final int TENANTS = 10;
    private static final int STEPS = 40;
    private static final int HOOKS_PER_STEP = 30;

    @TempDir
    Path dir;

    /** An entry of the by-tenant history: its tenant and key. */
    private record Entry(long ord, AttemptKey key) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theHistoryStaysWithinItsByteBoundUnderASteadyLoadAndLosesItsOldestEntriesFirst(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir,
                b -> b.attemptsMaxBytes(MAX_BYTES).housekeepingInterval(Duration.ZERO))) {
            // Every third hook fails its first attempt: retried deliveries write slots and evict nothing.
            Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
            ScriptedSink sink = new ScriptedSink(d -> {
                int call = calls.computeIfAbsent(d.hookId(), id -> new AtomicInteger()).incrementAndGet();
                return d.hookId().hashCode() % 3 == 0 && call == 1 ? SinkOutcome.retry("busy")
                        : SinkOutcome.delivered(204);
            });
            Housekeeping housekeeping = QueueEngine.of(f.queue()).housekeeping();
            long mostAddedByAStep = 0;
            boolean passedTheBound = false;
            try (Pipeline pipeline = f.pipeline(sink,
                    b -> b.retryPolicy(RetryPolicy.defaults()).random(new SplittableRandom(11)))) {
                for (int step = 0; step < STEPS; step++) {
                    long before = historyBytes(f);
                    for (int i = 0; i < HOOKS_PER_STEP; i++) {
                        f.ingest("h" + step + "_" + i, "t" + (i % TENANTS), 0);
                    }
                    DispatchFixture.await(pipeline.tick());
                    DispatchFixture.await(pipeline.tick());
                    long added = historyBytes(f) - before;
                    mostAddedByAStep = Math.max(mostAddedByAStep, added);
                    passedTheBound |= historyBytes(f) > MAX_BYTES;
                    f.clock().advance(1_000);

                    pruneOnceAndCheckTheOldestWent(f, housekeeping);
                    assertThat(historyBytes(f)).as("step %d: within the bound plus two steps' history", step)
                            .isLessThanOrEqualTo(MAX_BYTES + 2 * mostAddedByAStep);
                    assertThat(historyBytes(f)).as("step %d: the counter is the fold", step)
                            .isEqualTo(foldHistoryBytes(f));
                }
            }
            assertThat(passedTheBound).as("the load wrote more history than the bound").isTrue();
            assertThat(mostAddedByAStep).as("a step adds a small part of the bound").isLessThan(MAX_BYTES / 4);

            // After the load: the next two prunes (one pass learns, the next removes) end within the bound.
            pruneOnceAndCheckTheOldestWent(f, housekeeping);
            pruneOnceAndCheckTheOldestWent(f, housekeeping);
            DiskUsage disk = f.queue().diskUsage();
            assertThat(disk.historyBytes()).as("within the bound").isLessThanOrEqualTo(MAX_BYTES)
                    .as("and pruned no further than needed").isGreaterThan(MAX_BYTES / 2);
            assertThat(disk.historyBytes()).isEqualTo(foldHistoryBytes(f));
            assertThat(disk.historyMaxBytes()).isEqualTo(MAX_BYTES);
            assertThat(disk.storeBytes()).isPositive();
            f.assertConsistent();
        }
    }

    /** Runs housekeeping's attempt pruning once; whatever it removed is older than everything it kept. */
    private static void pruneOnceAndCheckTheOldestWent(DispatchFixture f, Housekeeping housekeeping) {
        Set<Entry> before = entries(f);
        int pruned = housekeeping.pruneAttempts();
        Set<Entry> after = entries(f);
        Set<Entry> gone = new HashSet<>(before);
        gone.removeAll(after);
        assertThat(gone).as("what the prune reported").hasSize(pruned);
        if (!gone.isEmpty() && !after.isEmpty()) {
            long newestGone = gone.stream().mapToLong(e -> e.key().at()).max().orElseThrow();
            long oldestKept = after.stream().mapToLong(e -> e.key().at()).min().orElseThrow();
            assertThat(newestGone).as("every entry pruned is older than every entry kept").isLessThan(oldestKept);
        }
    }

    private static long historyBytes(DispatchFixture f) {
        return f.queue().diskUsage().historyBytes();
    }

    /** Every by-tenant history entry of the fixture's tenants, read from the store. */
    private static Set<Entry> entries(DispatchFixture f) {
        Set<Entry> out = new HashSet<>();
        for (int t = 0; t < TENANTS; t++) {
            long ord = f.ord("t" + t);
            KeySpan span = AttemptKey.tenantRange(ord);
            try (Scan scan = f.store().scan(ColumnFamilies.INDEX, KeyRange.of(span.from(), span.to()))) {
                while (scan.hasNext()) {
                    out.add(new Entry(ord, AttemptKey.decodeByTenant(scan.next().key())));
                }
            }
        }
        return out;
    }

    /** Key and value bytes of every attempt history key (by tenant, by hook, slot), sentinels left out. */
    private static long foldHistoryBytes(DispatchFixture f) {
        Store store = f.store();
        KeySpan family = AttemptKey.FAMILY.between();
        Map<Long, Long> byTenant = new HashMap<>();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.of(family.from(), family.to()))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                byTenant.merge(AttemptKey.ordOf(kv.key()), (long) kv.key().length + kv.value().length, Long::sum);
            }
        }
        return byTenant.values().stream().mapToLong(Long::longValue).sum();
    }
}
