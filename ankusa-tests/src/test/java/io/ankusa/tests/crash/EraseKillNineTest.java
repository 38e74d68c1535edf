package io.ankusa.tests.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.ErasureResult;
import io.ankusa.api.Hook;
import io.ankusa.api.TenantErasingException;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.store.Bytes;
import io.ankusa.testkit.property.Gen;
import io.ankusa.testkit.property.Property;
import io.ankusa.testkit.property.PropertyConfig;
import io.ankusa.tests.operator.ErasureSeed;
import io.ankusa.tests.operator.ErasureSeed.Seeded;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A tenant erase killed with SIGKILL at a seeded random step, then resumed, reaches the state of
 * an erase that was never interrupted. The parent seeds a store ({@link ErasureSeed}: two tenants
 * with due, inflight, dead, delivered and quarantined rows, archive obligations and idempotency keys); a child
 * JVM ({@link ErasingQueueProcess}) erases one of them and stops after each synced commit of the
 * erase; the parent kills it after the {@code k}-th ({@code k} drawn from the round's seed, past
 * the erase's last commit now and then, when there is nothing left to resume). The parent then
 * opens the store, finds the tenant still fenced, calls {@code eraseTenant} again, and checks:
 * every family but the audit trail is byte-identical to the uninterrupted erase's (read raw); the
 * erased tenant's only entry is its {@code ?t} tombstone; the other tenant's entries are
 * byte-identical; the counters equal a fold of the index; the audit entry says {@code resumed}.
 *
 * <p>Rounds per backend: {@code -Dankusa.crash.rounds} (default 3; the {@code soak} profile runs
 * 20); replay with {@code -Dankusa.seed=…} from a failure.
 */
class EraseKillNineTest {

    /** Kill points are drawn from 1..this; the seed's erase makes 18 commits (TenantErasureTest). */
    private static final int MAX_COMMITS_BEFORE_KILL = 19;

    @TempDir
    Path tempDir;

    private static PropertyConfig rounds() {
        return new PropertyConfig(PropertyConfig.of(1, 1).seed(), Integer.getInteger("ankusa.crash.rounds", 3), 1);
    }

    private static Gen<Integer> killPoints() {
        return random -> 1 + random.nextInt(MAX_COMMITS_BEFORE_KILL);
    }

    /** The uninterrupted erase's end state, and the other tenant's entries in it. */
    private record Expected(List<String> families, List<String> other) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anEraseKilledAtARandomStepAndResumedReachesTheSameState(String backend) {
        Expected expected = uninterrupted(backend, tempDir.resolve("whole"));
        AtomicInteger n = new AtomicInteger();
        Property.forAll(rounds(), killPoints(), k -> run(backend, k, n.incrementAndGet(), expected));
    }

    private static Expected uninterrupted(String backend, Path dir) {
        Seeded seeded;
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.archive(true))) {
            seeded = ErasureSeed.seed(q);
        }
        // Opened as the child opens it, on a fresh test clock: the seed's inflight rows go back to
        // due at the clock's start.
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.archive(true))) {
            assertThat(q.queue().eraseTenant(ErasureSeed.VICTIM).erased()).isTrue();
            q.reopen();
            return new Expected(ErasureSeed.withoutAudit(q), ErasureSeed.rowsOf(q, seeded, seeded.ord(ErasureSeed.OTHER)));
        }
    }

    private void run(String backend, int killAfter, int round, Expected expected) {
        Path dir = tempDir.resolve("cut-" + round);
        Seeded seeded;
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.archive(true))) {
            seeded = ErasureSeed.seed(q);
        }
        int[] committed = {0};
        boolean[] finished = {false};
        long t0 = System.nanoTime();
        try (ChildJvm child = ChildJvm.start(ErasingQueueProcess.class, tempDir.resolve("cut-" + round + ".err"),
                backend, dir.toString())) {
            child.readUntil(line -> line.equals("erasing"));
            child.readUntil(line -> {
                if (line.startsWith("erased ")) {
                    finished[0] = true;
                    return true;
                }
                if (line.startsWith("commit ")) {
                    committed[0] = Integer.parseInt(line.substring("commit ".length()));
                    if (committed[0] >= killAfter) {
                        return true;
                    }
                    child.send("go");
                }
                return false;
            });
            // The child waits at its gate (or idles after the erase): the kill finds it with exactly
            // `committed` of the erase's commits durable.
            child.killNine();
        }

        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.archive(true))) {
            // A kill right after the erase's last commit, before the child said "erased", leaves a
            // finished erase: nothing is fenced and nothing is left to resume. (The store announces
            // every commit, so the erase's last one has no fixed number.)
            boolean done = finished[0] || ErasureSeed.withoutAudit(q).equals(expected.families());
            if (!done) {
                Hook late = Hook.builder().id("late").sourceId("src").tenantId(ErasureSeed.VICTIM).payload("{}")
                        .sinks(0).build();
                assertThatThrownBy(() -> q.ingest(late)).as("fenced again at open after %d commits", committed[0])
                        .isInstanceOf(TenantErasingException.class);
            }
            ErasureResult rest = q.queue().eraseTenant(ErasureSeed.VICTIM);
            assertThat(rest.erased()).as("something left to erase after %d commits", committed[0])
                    .isEqualTo(!done);
            if (!done) {
                assertThat(q.queue().auditTrail(1).get(0).counts()).containsEntry("resumed", 1L);
            }
            q.reopen();

            assertThat(ErasureSeed.withoutAudit(q)).as("every family but the audit trail, byte for byte, killed after"
                    + " commit %d", committed[0]).isEqualTo(expected.families());
            long victim = seeded.ord(ErasureSeed.VICTIM);
            String tombstone = "tenants " + Bytes.hex(new TenantByOrdKey(victim).encode()) + " = ";
            assertThat(ErasureSeed.rowsOf(q, seeded, victim)).as("only the ?t tombstone is left").containsExactly(tombstone);
            assertThat(ErasureSeed.rowsOf(q, seeded, seeded.ord(ErasureSeed.OTHER))).as("the other tenant, byte for byte")
                    .isEqualTo(expected.other());
            IndexFold.of(q.store()).assertCountersMatch(q.store());
            assertThat(IndexFold.counters(q.store())).doesNotContainKey(victim);
        }
        System.out.printf("erase kill -9 %s round %d: killed after commit %d%s; checked in %d ms%n", backend, round,
                committed[0], finished[0] ? " (the erase had finished)" : "", (System.nanoTime() - t0) / 1_000_000);
    }
}
