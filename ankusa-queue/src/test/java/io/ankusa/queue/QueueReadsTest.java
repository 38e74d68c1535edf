package io.ankusa.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.DeadStats;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantStats;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class QueueReadsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anUnknownTenantReadsAsEmpty(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("1", "known", 0));
            assertThat(q.queue().pendingForTenant("nobody")).isEqualTo(TenantStats.EMPTY);
            assertThat(q.queue().deadForTenant("nobody")).isEqualTo(DeadStats.EMPTY);
            assertThat(q.queue().pendingForTenant("")).isEqualTo(TenantStats.EMPTY);
            assertThat(q.ord("nobody")).isEmpty();
            assertThat(q.name(2)).isEmpty();
            assertThat(q.name(1)).hasValue("known");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void seqIsCommitOrderContiguousAcrossGroupCommitsAndNeverReusedAfterAReopen(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.batchMaxHooks(16))) {
            List<CompletableFuture<Receipt>> futures = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                futures.add(q.queue().ingest(QueueUnderTest.hook("h" + i, "t" + (i % 7), 0)));
            }
            List<Long> seqs = new ArrayList<>();
            for (CompletableFuture<Receipt> f : futures) {
                seqs.add(QueueUnderTest.await(f).seq());
            }
            assertThat(seqs).containsExactlyElementsOf(LongStream.rangeClosed(1, 300).boxed().toList());
            // Everything delivered and removed: the hooks family alone no longer knows the last seq.
            for (long ord = 1; ord <= 7; ord++) {
                q.engine().purge().purgeDue(ord);
            }
            q.store().commit(new io.ankusa.store.WriteBatch().deleteRange("hooks",
                    new byte[] {0, 0, 0, 0, 0, 0, 0, 1}, new byte[] {0, 0, 0, 0, 0, 0, 1, 0}), io.ankusa.store.Durability.SYNC);
            q.reopen();
            assertThat(q.ingest(QueueUnderTest.hook("after", "t0", 0)).seq()).isEqualTo(301);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void pendingForTenantDeadForTenantAndPurgeTenantTouchOneTenant(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            for (int i = 0; i < 5; i++) {
                q.ingest(QueueUnderTest.hook("a" + i, "a", 0, 1));
                q.ingest(QueueUnderTest.hook("b" + i, "b", 0));
            }
            long a = q.ord("a").orElseThrow();
            long b = q.ord("b").orElseThrow();
            var claim = q.ledger().claim(a, q.ledger().dueForTenant(a, q.clock().millis(), 0, 3, Long.MAX_VALUE));
            claim.claimed().forEach(d -> q.ledger().dead(d, "no"));
            TenantStats bBefore = q.queue().pendingForTenant("b");
            assertThat(bBefore.pending()).isEqualTo(5);
            assertThat(q.queue().pendingForTenant("a").pending()).isEqualTo(7);
            assertThat(q.queue().deadForTenant("a").dead()).isEqualTo(3);
            assertThat(q.queue().deadForTenant("b").dead()).isZero();

            assertThat(q.engine().purge().purgeDue(a)).isEqualTo(7);
            assertThat(q.engine().purge().purgeDead(a)).isEqualTo(3);
            assertThat(q.queue().pendingForTenant("a")).isEqualTo(TenantStats.EMPTY);
            assertThat(q.queue().deadForTenant("a").dead()).isZero();
            assertThat(q.queue().pendingForTenant("b")).isEqualTo(bBefore);
            assertThat(q.ledger().dueForTenant(b, q.clock().millis(), 0, 100, Long.MAX_VALUE)).hasSize(5);
            assertThat(q.engine().purge().purgeDue(a)).as("idempotent").isZero();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void oldestDueAgeComesFromTheActiveIndex(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            assertThat(q.queue().oldestDueAge()).isEmpty();
            q.ingest(QueueUnderTest.hook("1", "x", 0));
            long at = q.clock().millis();
            q.clock().advance(1_500);
            q.ingest(QueueUnderTest.hook("2", "y", 0));
            q.clock().advance(2_000);
            assertThat(q.queue().oldestDueAge()).hasValue(Duration.ofMillis(3_500));
            long x = q.ord("x").orElseThrow();
            q.ledger().claim(x, q.ledger().dueForTenant(x, q.clock().millis(), 0, 10, Long.MAX_VALUE));
            // x's marker is now stale: it is skipped after checking x's first due row.
            assertThat(q.ledger().oldestDueAt()).hasValue(at + 1_500);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void closeCommitsTheHooksAlreadyAcceptedAndRefusesLaterOnes(String backend) {
        List<CompletableFuture<Receipt>> futures = new ArrayList<>();
        QueueUnderTest q = QueueUnderTest.open(backend, dir);
        for (int i = 0; i < 500; i++) {
            futures.add(q.queue().ingest(QueueUnderTest.hook("h" + i, "t", 0)));
        }
        q.close();
        for (CompletableFuture<Receipt> f : futures) {
            assertThat(f).isCompleted();
            assertThat(QueueUnderTest.await(f).seq()).isPositive();
        }
        assertThat(q.queue().ingest(QueueUnderTest.hook("late", "t", 0)))
                .failsWithin(Duration.ZERO)
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(io.ankusa.api.QueueClosedException.class);
        try (QueueUnderTest again = QueueUnderTest.open(backend, dir)) {
            assertThat(again.queue().pendingForTenant("t").pending()).isEqualTo(500);
        }
    }
}
