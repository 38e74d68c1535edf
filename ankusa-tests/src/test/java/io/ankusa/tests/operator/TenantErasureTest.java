package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.ErasureResult;
import io.ankusa.api.Hook;
import io.ankusa.api.TenantErasingException;
import io.ankusa.store.Bytes;
import io.ankusa.store.StoreException;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.support.AfterCommitStore;
import io.ankusa.tests.queue.Backends;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.operator.ErasureSeed.Seeded;
import io.ankusa.tests.support.InterruptingStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tenant erasure (TEN-5): every trace of the tenant goes (read back family by family, straight
 * from the store), the other tenant's entries stay byte for byte, the counters equal a fold, and
 * an erase cut short at any commit and called again ends in the same state.
 */
class TenantErasureTest {

    private static final String VICTIM = ErasureSeed.VICTIM;

    @TempDir
    Path dir;

    static Stream<String> backends() {
        return Backends.names();
    }

    private static Seeded seed(QueueUnderTest q) {
        return ErasureSeed.seed(q);
    }

    private static List<String> rowsOf(QueueUnderTest q, Seeded seeded, long ord) {
        return ErasureSeed.rowsOf(q, seeded, ord);
    }

    private static List<String> withoutAudit(QueueUnderTest q) {
        return ErasureSeed.withoutAudit(q);
    }

    @ParameterizedTest(name = "erased tenant leaves no bytes behind [{0}]")
    @MethodSource("backends")
    void erasedTenantLeavesNoBytesBehind(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.archive(true))) {
            Seeded seeded = seed(q);
            long victim = seeded.ord(VICTIM);
            long other = seeded.ord(ErasureSeed.OTHER);
            List<String> otherBefore = rowsOf(q, seeded, other);
            assertThat(rowsOf(q, seeded, victim)).hasSizeGreaterThan(50)
                    .as("attempt history: by tenant and by hook for each of three delivered attempts (no slot)")
                    .filteredOn(line -> line.startsWith("index 48")).hasSize(6);

            ErasureResult result = q.queue().eraseTenant(VICTIM);

            assertThat(result.erased()).isTrue();
            assertThat(result.inflight()).isEqualTo(2);
            assertThat(result.dead()).isEqualTo(3);
            assertThat(result.pending()).isEqualTo(16 - 8);
            assertThat(result.hooks()).as("ten sound hooks and the quarantined one").isEqualTo(11);
            assertThat(result.dedupeKeys()).isEqualTo(20);
            assertThat(result.quarantined()).isEqualTo(1);
            String tombstone = "tenants " + Bytes.hex(new io.ankusa.keys.TenantByOrdKey(victim).encode()) + " = ";
            assertThat(rowsOf(q, seeded, victim)).as("only the ?t tombstone is left").containsExactly(tombstone);
            String idHex = Bytes.hex(VICTIM.getBytes(StandardCharsets.UTF_8));
            assertThat(withoutAudit(q)).as("the tenant id is nowhere but in the audit trail")
                    .noneMatch(line -> line.contains(idHex))
                    .noneMatch(line -> line.contains(Bytes.hex("m:erasing".getBytes(StandardCharsets.US_ASCII))));
            assertThat(rowsOf(q, seeded, other)).as("the other tenant, byte for byte").isEqualTo(otherBefore);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
            assertThat(IndexFold.counters(q.store())).doesNotContainKey(victim);

            AuditEntry entry = q.queue().auditTrail(1).get(0);
            assertThat(entry.action()).isEqualTo(AuditAction.ERASE);
            assertThat(entry.tenantId()).isEqualTo(VICTIM);
            assertThat(entry.counts()).containsEntry("inflight", 2L).containsEntry("hooks", 11L)
                    .containsEntry("quarantined", 1L)
                    .doesNotContainKey("resumed");

            // The id comes back as a new tenant with a new ordinal.
            q.ingest(Hook.builder().id("again").sourceId("src").tenantId(VICTIM).payload("{}").sinks(0).build());
            assertThat(q.ord(VICTIM)).hasValue(3);
            assertThat(q.name(victim)).isEmpty();
            assertThat(q.queue().pendingForTenant(VICTIM).pending()).isEqualTo(1);
            assertThat(q.queue().eraseTenant("never-seen")).isEqualTo(ErasureResult.none("never-seen"));
        }
    }

    @ParameterizedTest(name = "a row settled back to due while the erase runs is erased too [{0}]")
    @MethodSource("backends")
    void aRowSettledBackToDueWhileTheEraseRunsIsErasedToo(String backend) {
        AtomicReference<AfterCommitStore> store = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            store.set(new AfterCommitStore(s));
            return store.get();
        })) {
            java.util.Map<Long, Long> ownerOfSeq = new java.util.HashMap<>();
            for (int i = 0; i < 3; i++) {
                long seq = q.ingest(Hook.builder().id("v" + i).sourceId("src").tenantId(VICTIM).payload("{}").sinks(0)
                        .build()).seq();
                ownerOfSeq.put(seq, q.ord(VICTIM).orElseThrow());
            }
            q.ingest(Hook.builder().id("o").sourceId("src").tenantId(ErasureSeed.OTHER).payload("{}").sinks(0).build());
            long victim = q.ord(VICTIM).orElseThrow();
            List<io.ankusa.queue.ledger.ClaimedDelivery> inflight = Operations.claim(q, VICTIM, 2);
            assertThat(inflight).hasSize(2);
            // Right after the erase's due step, the pipeline settles one of the rows it had in flight
            // as a retry: due again, after the step that erases due rows.
            byte[] marker = io.ankusa.queue.deliveries.TenantErasure.markerKey(victim);
            store.get().afterCommit(batch -> batch.ops().stream().anyMatch(op -> op instanceof WriteBatch.Put put
                    && java.util.Arrays.equals(put.key(), marker)
                    && put.value()[0] == io.ankusa.queue.deliveries.TenantErasure.Step.INFLIGHT.ordinal()), () -> {
                        q.ledger().retry(inflight.get(0), q.clock().millis(), "HTTP 503");
                        assertThat(q.queue().pendingForTenant(VICTIM).scheduled()).as("the retry is due again").isEqualTo(1);
                    });

            ErasureResult result = q.queue().eraseTenant(VICTIM);

            assertThat(store.get().fired()).as("the retry ran between the due and the inflight steps").isTrue();
            assertThat(result.erased()).isTrue();
            String tombstone = "tenants " + Bytes.hex(new io.ankusa.keys.TenantByOrdKey(victim).encode()) + " = ";
            assertThat(TenantRows.of(q.store(), java.util.Set.of(victim), seq -> ownerOfSeq.getOrDefault(seq, -1L),
                    java.util.Map.of(VICTIM, victim, ErasureSeed.OTHER, q.ord(ErasureSeed.OTHER).orElseThrow())))
                    .as("only the ?t tombstone is left").containsExactly(tombstone);
            IndexFold fold = IndexFold.of(q.store());
            fold.assertCountersMatch(q.store());
            fold.assertEveryDueRowHasAMarker();
            assertThat(q.queue().stats().pending()).as("the other tenant's hook").isEqualTo(1);
        }
    }

    static Stream<Arguments> interruptions() {
        // An uninterrupted erase of the seed makes 18 commits: the marker, one chunk and one step
        // advance for each of the six walked steps, the quarantined rows' chunk in the dead step (7),
        // the dedupe step's two batches on the writer (13, 14: expiry keys, then dedupe keys) and its
        // step advance, and the last batch.
        return Backends.names().flatMap(b -> Stream.of(1, 2, 5, 7, 9, 15, 17, 18).map(k -> Arguments.of(b, k)));
    }

    @ParameterizedTest(name = "an erase cut short at commit {1} and resumed reaches the same state [{0}]")
    @MethodSource("interruptions")
    void anEraseCutShortAndResumedReachesTheSameState(String backend, int failingCommit) {
        List<String> expected;
        try (QueueUnderTest whole = QueueUnderTest.open(backend, dir.resolve("whole"), b -> b.archive(true))) {
            seed(whole);
            whole.queue().eraseTenant(VICTIM);
            // As the interrupted queue below, restarted: the other tenant's inflight rows go back to due.
            whole.reopen();
            expected = withoutAudit(whole);
        }
        AtomicReference<InterruptingStore> faults = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir.resolve("cut"), b -> b.archive(true), s -> {
            faults.set(new InterruptingStore(s));
            return faults.get();
        })) {
            seed(q);
            faults.get().failCommit(failingCommit, b -> true);
            assertThatThrownBy(() -> q.queue().eraseTenant(VICTIM)).isInstanceOf(StoreException.class);
            Hook late = Hook.builder().id("late").sourceId("src").tenantId(VICTIM).payload("{}").sinks(0).build();
            assertThatThrownBy(() -> q.ingest(late)).isInstanceOfSatisfying(TenantErasingException.class,
                    e -> assertThat(e.error()).isEqualTo("tenant_erasing"));

            q.reopen();
            if (failingCommit > 1) {
                // The erase marker was committed: the tenant is fenced again at open.
                assertThatThrownBy(() -> q.ingest(late)).as("still fenced after a restart")
                        .isInstanceOf(TenantErasingException.class);
            }
            ErasureResult rest = q.queue().eraseTenant(VICTIM);

            assertThat(rest.erased()).isTrue();
            assertThat(withoutAudit(q)).as("every family but the audit trail, byte for byte").isEqualTo(expected);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
            if (failingCommit > 1) {
                assertThat(q.queue().auditTrail(1).get(0).counts()).containsEntry("resumed", 1L);
            }
        }
    }
}
