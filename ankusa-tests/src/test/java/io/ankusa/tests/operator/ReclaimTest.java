package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.PurgeKind;
import io.ankusa.api.Receipt;
import io.ankusa.keys.ClearedKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DeliveryKey;
import io.ankusa.keys.HookKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.queue.ArchiveCompactor;
import io.ankusa.api.ArchiveOutcome;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.upkeep.HookReclaimer;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.support.ForwardingStore;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Reclaim: a hook goes once no delivery row and no archive obligation needs it. */
class ReclaimTest {

    @TempDir
    Path dir;

    static Set<Long> seqs(Store store, String family, KeySpan span, java.util.function.Function<byte[], Long> seqOf) {
        Set<Long> out = new TreeSet<>();
        try (Scan scan = store.scan(family, KeyRange.of(span.from(), span.to()))) {
            scan.forEachRemaining(kv -> out.add(seqOf.apply(kv.key())));
        }
        return out;
    }

    static Set<Long> hooks(Store store) {
        return seqs(store, ColumnFamilies.HOOKS, HookKey.FAMILY.between(), k -> HookKey.decode(k).seq());
    }

    static Set<Long> markers(Store store) {
        return seqs(store, ColumnFamilies.INDEX, ClearedKey.FAMILY.between(), k -> ClearedKey.decode(k).seq());
    }

    static Set<Long> deliveryRows(Store store) {
        return seqs(store, ColumnFamilies.DELIVERIES, DeliveryKey.FAMILY.between(), k -> DeliveryKey.decode(k).seq());
    }

    private static int drain(QueueUnderTest q) {
        return q.engine().housekeeping().reclaim();
    }

    /**
     * Settles {@code rows} as orphan drops: each leaves its hook's cleared marker, as every removal
     * of a row does but a settle that delivers a hook's last row (that one deletes the hook itself,
     * see {@link #aSettleDeletesTheHooksWhoseLastRowsOneScanReadsAndMarksTheOthers}), so these
     * tests reach reclaim.
     */
    private static void dropLeavingMarkers(QueueUnderTest q, List<ClaimedDelivery> rows) {
        q.ledger().settle(rows.stream().<io.ankusa.queue.ledger.Settlement>map(
                d -> new io.ankusa.queue.ledger.Settlement.Orphan(d.row())).toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void reclaimRemovesAHookOnceNoDeliveryRowAndNoArchiveObligationNeedsIt(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.archive(true))) {
            long seq = q.ingest(QueueUnderTest.hook("h", "acme", 0, 1)).seq();
            Claim claim = q.ledger().claim(1, q.ledger().dueForTenant(1, q.clock().millis(), 0, 10, Long.MAX_VALUE));
            ClaimedDelivery first = claim.claimed().get(0);
            ClaimedDelivery second = claim.claimed().get(1);

            q.ledger().delivered(first.row());
            assertThat(markers(q.store())).containsExactly(seq);
            assertThat(drain(q)).as("sink %d still owed", second.sink()).isZero();
            assertThat(hooks(q.store())).containsExactly(seq);
            assertThat(markers(q.store())).as("the marker is spent; the last removal writes a new one").isEmpty();

            q.ledger().delivered(second.row());
            assertThat(drain(q)).as("the archive obligation keeps it").isZero();
            assertThat(hooks(q.store())).containsExactly(seq);

            assertThat(ArchiveCompactor.manual(q.queue(), h -> ArchiveOutcome.ARCHIVED).compact(10)).isEqualTo(1);
            assertThat(markers(q.store())).as("settling the obligation leaves a marker").containsExactly(seq);
            assertThat(drain(q)).isEqualTo(1);
            assertThat(hooks(q.store())).isEmpty();
            assertThat(markers(q.store())).isEmpty();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aDeadLetterKeepsItsHookUntilItIsPurged(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            long dead = q.ingest(QueueUnderTest.hook("dead", "acme", 0)).seq();
            Operations.deadLetter(q, "acme", 1);
            long delivered = q.ingest(QueueUnderTest.hook("delivered", "acme", 0)).seq();
            Operations.deliver(q, "acme", 1);
            assertThat(hooks(q.store())).as("the settle that delivered its only row deleted it")
                    .containsExactly(dead).doesNotContain(delivered);
            assertThat(drain(q)).isZero();

            q.queue().purgeTenant("acme", Set.of(PurgeKind.DEAD));
            assertThat(drain(q)).isEqualTo(1);
            assertThat(hooks(q.store())).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void reclaimRoundsAreBoundedAndWalkPastAMarkerTheyMustKeep(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            long corrupt = q.ingest(QueueUnderTest.hook("corrupt", "acme", 0, 1)).seq();
            for (int i = 0; i < 6; i++) {
                q.ingest(QueueUnderTest.hook("ok" + i, "acme", 0));
            }
            List<DueRow> due = q.ledger().dueForTenant(1, q.clock().millis(), 0, 100, Long.MAX_VALUE);
            Claim claim = q.ledger().claim(1, due.stream().filter(r -> r.seq() != corrupt || r.sink() == 0).toList());
            assertThat(claim.claimed()).hasSize(7);
            // The first hook stops decoding: its tenant (and stripe) can no longer be learnt from it.
            byte[] intact = q.store().get(ColumnFamilies.HOOKS, new HookKey(corrupt).encode()).orElseThrow();
            q.store().commit(new WriteBatch().put(ColumnFamilies.HOOKS, new HookKey(corrupt).encode(), new byte[] {42}),
                    Durability.SYNC);
            dropLeavingMarkers(q, claim.claimed());
            assertThat(markers(q.store())).hasSize(7).contains(corrupt);

            HookReclaimer reclaimer = q.engine().reclaimer();
            int removed = 0;
            for (int round = 0; round < 7; round++) {
                HookReclaimer.Round r = reclaimer.reclaim(1);
                assertThat(r.markers()).isLessThanOrEqualTo(1);
                removed += r.hooks();
            }
            assertThat(removed).as("every other hook is reclaimed although the first marker stays").isEqualTo(6);
            assertThat(hooks(q.store())).containsExactly(corrupt);
            assertThat(markers(q.store())).containsExactly(corrupt);

            // Its last row is never dropped as an orphan: the claim moves it into the quarantine and keeps the hook.
            Claim quarantining = q.ledger().claim(1, q.ledger().dueForTenant(1, q.clock().millis(), 0, 100, Long.MAX_VALUE));
            assertThat(quarantining.orphans()).isEmpty();
            assertThat(quarantining.quarantined()).hasSize(1);
            assertThat(hooks(q.store())).containsExactly(corrupt);
            // The operator restores the hook and releases the quarantine: it is delivered and reclaimed like any other.
            q.store().commit(new WriteBatch().put(ColumnFamilies.HOOKS, new HookKey(corrupt).encode(), intact),
                    Durability.SYNC);
            assertThat(q.queue().releaseQuarantine(q.name(1).orElseThrow()).rows()).isEqualTo(1);
            Claim rest = q.ledger().claim(1, q.ledger().dueForTenant(1, q.clock().millis(), 0, 100, Long.MAX_VALUE));
            assertThat(rest.orphans()).isEmpty();
            rest.claimed().forEach(d -> q.ledger().delivered(d.row()));
            assertThat(hooks(q.store())).as("the settle of its last row deleted it").isEmpty();
            assertThat(drain(q)).as("its old marker goes with nothing left to reclaim").isZero();
            assertThat(markers(q.store())).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void reclaimRacingDeliveriesAndExpansionNeverLeavesADeliveryRowWithoutItsHook(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            List<CompletableFuture<Receipt>> futures = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                futures.add(q.queue().ingest(QueueUnderTest.hook("h" + i, "acme", 0)));
            }
            List<Long> seqs = futures.stream().map(QueueUnderTest::await).map(Receipt::seq).toList();
            AtomicBoolean done = new AtomicBoolean();
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<Integer> expanded = pool.submit(() -> {
                    start.await();
                    int n = 0;
                    try {
                        for (int i = 0; i < seqs.size(); i++) {
                            long seq = seqs.get(i);
                            if (i % 2 == 0) {
                                // Every other hook is expanded while it still owes a delivery, so the
                                // expansion path runs whoever wins the races below (the reclaimer is
                                // fast enough to take every delivered hook first).
                                n += q.engine().expansion().expand(seq, List.of(9));
                                Operations.deliver(q, "acme", 1);
                                continue;
                            }
                            Operations.deliver(q, "acme", 1);
                            try {
                                n += q.engine().expansion().expand(seq, List.of(9));
                            } catch (IllegalArgumentException reclaimedFirst) {
                                // the hook was delivered and reclaimed before the expansion: nothing to add to
                            }
                        }
                    } finally {
                        done.set(true);
                    }
                    return n;
                });
                Future<?> reclaiming = pool.submit(() -> {
                    start.await();
                    while (!done.get()) {
                        q.engine().reclaimer().reclaim(7);
                    }
                    return null;
                });
                start.countDown();
                int added = expanded.get(120, TimeUnit.SECONDS);
                reclaiming.get(120, TimeUnit.SECONDS);
                assertThat(added).isPositive();
                assertThat(hooks(q.store())).as("every delivery row's hook is still there")
                        .containsAll(deliveryRows(q.store()));
                IndexFold.of(q.store()).assertCountersMatch(q.store());

                while (Operations.deliver(q, "acme", 100) > 0) {
                    // drain
                }
                drain(q);
                assertThat(hooks(q.store())).isEmpty();
                assertThat(markers(q.store())).isEmpty();
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aReclaimRoundDeletesItsHooksInChunksOneHoldOfTheStripesEach(String backend) {
        List<Long> hookDeletesPerCommit = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> new ForwardingStore(s) {
            @Override
            public void commit(WriteBatch batch, Durability durability) {
                long hookDeletes = batch.ops().stream().filter(op -> op instanceof WriteBatch.Delete d
                        && d.family().equals(ColumnFamilies.HOOKS)).count();
                if (hookDeletes > 0) {
                    hookDeletesPerCommit.add(hookDeletes);
                }
                super.commit(batch, durability);
            }
        })) {
            for (int i = 0; i < 300; i++) {
                q.ingest(QueueUnderTest.hook("h" + i, "acme", 0));
            }
            Claim claim = q.ledger().claim(1, q.ledger().dueForTenant(1, q.clock().millis(), 0, 1_000, Long.MAX_VALUE));
            assertThat(claim.claimed()).hasSize(300);
            dropLeavingMarkers(q, claim.claimed());

            HookReclaimer.Round round = q.engine().reclaimer().reclaim(512);

            assertThat(round.hooks()).isEqualTo(300);
            assertThat(hookDeletesPerCommit).as("hooks deleted per commit (one commit per hold of the stripes)")
                    .containsExactly(128L, 128L, 44L);
            assertThat(hooks(q.store())).isEmpty();
            assertThat(markers(q.store())).isEmpty();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aHookWithARowLeftIsKeptWhetherTheChunksRowsAreReadInOneScanOrHookByHook(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            List<Long> seqs = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                seqs.add(q.ingest(QueueUnderTest.hook("h" + i, "acme", 0)).seq());
            }
            Claim claim = q.ledger().claim(1, q.ledger().dueForTenant(1, q.clock().millis(), 0, 1_000, Long.MAX_VALUE));
            assertThat(claim.claimed()).hasSize(700);
            // Chunk one (one scan): hooks 0..9 but 5 delivered. Chunk two (hook by hook: more than
            // the scan budget of rows between them): hooks 10 and 699.
            Set<Integer> delivered = new TreeSet<>(List.of(0, 1, 2, 3, 4, 6, 7, 8, 9));
            dropLeavingMarkers(q, claim.claimed().stream().filter(d -> delivered.contains(seqs.indexOf(d.row().seq()))).toList());
            assertThat(q.engine().reclaimer().reclaim(256).hooks()).isEqualTo(9);
            dropLeavingMarkers(q, claim.claimed().stream()
                    .filter(d -> d.row().seq() == seqs.get(10) || d.row().seq() == seqs.get(699)).toList());
            assertThat(q.engine().reclaimer().reclaim(256).hooks()).isEqualTo(2);

            assertThat(hooks(q.store())).hasSize(689).contains(seqs.get(5)).doesNotContain(seqs.get(0), seqs.get(9),
                    seqs.get(10), seqs.get(699));
            assertThat(hooks(q.store())).containsAll(deliveryRows(q.store()));
            assertThat(markers(q.store())).isEmpty();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void hooksSpreadOverTheSeqsAreCheckedThroughOneCursorNotAScanEach(String backend) {
        java.util.concurrent.atomic.AtomicInteger deliveryScans = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger deliveryCursors = new java.util.concurrent.atomic.AtomicInteger();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> new ForwardingStore(s) {
            @Override
            public Scan scan(String family, KeyRange range, io.ankusa.store.Direction direction) {
                if (family.equals(ColumnFamilies.DELIVERIES)) {
                    deliveryScans.incrementAndGet();
                }
                return super.scan(family, range, direction);
            }

            @Override
            public io.ankusa.store.Cursor cursor(String family) {
                if (family.equals(ColumnFamilies.DELIVERIES)) {
                    deliveryCursors.incrementAndGet();
                }
                return delegate().cursor(family);
            }
        })) {
            List<Long> seqs = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                seqs.add(q.ingest(QueueUnderTest.hook("h" + i, "acme", 0)).seq());
            }
            Claim claim = q.ledger().claim(1, q.ledger().dueForTenant(1, q.clock().millis(), 0, 1_000, Long.MAX_VALUE));
            // Six hooks, 100 to 200 seqs apart: more apart than one scan over their range may read.
            Set<Integer> dropped = new TreeSet<>(List.of(0, 150, 300, 450, 600, 699));
            dropLeavingMarkers(q, claim.claimed().stream().filter(d -> dropped.contains(seqs.indexOf(d.row().seq())))
                    .toList());
            deliveryScans.set(0);
            deliveryCursors.set(0);

            assertThat(q.engine().reclaimer().reclaim(256).hooks()).isEqualTo(6);

            assertThat(deliveryScans.get()).as("scans of the delivery rows").isZero();
            assertThat(deliveryCursors.get()).as("cursors over the delivery rows").isEqualTo(1);
            assertThat(hooks(q.store())).hasSize(694).containsAll(deliveryRows(q.store()));
            assertThat(markers(q.store())).isEmpty();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aSettleDeletesTheHooksWhoseLastRowsOneScanReadsAndMarksTheOthers(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            List<Long> seqs = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                // Hook 5 has a second sink, hook 6 too; every other hook one.
                seqs.add(q.ingest(i == 5 || i == 6 ? QueueUnderTest.hook("h" + i, "acme", 0, 1)
                        : QueueUnderTest.hook("h" + i, "acme", 0)).seq());
            }
            Claim claim = q.ledger().claim(1, q.ledger().dueForTenant(1, q.clock().millis(), 0, 1_000, Long.MAX_VALUE));
            assertThat(claim.claimed()).hasSize(702);
            // One settle over hooks 0..9 (one scan): hook 5's sink 0 only, both of hook 6's rows.
            deliver(q, claim.claimed().stream().filter(d -> seqs.indexOf(d.row().seq()) < 10)
                    .filter(d -> d.row().seq() != seqs.get(5) || d.sink() == 0).toList());
            assertThat(hooks(q.store())).as("hook 5 has a row left; hook 6's two rows went in one settle")
                    .contains(seqs.get(5)).doesNotContain(seqs.get(0), seqs.get(4), seqs.get(6), seqs.get(9));
            assertThat(markers(q.store())).as("a marker for the hook with a row left, none for the deleted ones")
                    .containsExactly(seqs.get(5));
            // Hooks 10 and 699: more seqs apart than the scan budget: not read, marked for reclaim.
            deliver(q, claim.claimed().stream()
                    .filter(d -> d.row().seq() == seqs.get(10) || d.row().seq() == seqs.get(699)).toList());
            assertThat(hooks(q.store())).hasSize(691).contains(seqs.get(10), seqs.get(699));
            assertThat(markers(q.store())).containsExactlyInAnyOrder(seqs.get(5), seqs.get(10), seqs.get(699));
            assertThat(drain(q)).as("hooks 10 and 699; hook 5 is still owed").isEqualTo(2);
            assertThat(hooks(q.store())).hasSize(689).containsAll(deliveryRows(q.store()));

            deliver(q, claim.claimed().stream().filter(d -> d.row().seq() == seqs.get(5)).toList());
            assertThat(hooks(q.store())).as("hook 5's last row").hasSize(688).doesNotContain(seqs.get(5));
            assertThat(drain(q)).isZero();
            assertThat(markers(q.store())).isEmpty();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    private static void deliver(QueueUnderTest q, List<ClaimedDelivery> rows) {
        q.ledger().settle(rows.stream().<io.ankusa.queue.ledger.Settlement>map(
                d -> new io.ankusa.queue.ledger.Settlement.Delivered(d.row())).toList());
    }
}
