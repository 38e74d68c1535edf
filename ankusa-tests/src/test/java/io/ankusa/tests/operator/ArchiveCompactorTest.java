package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.ArchiveOutcome;
import io.ankusa.api.ArchivedHook;
import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.queue.ArchiveCompactor;
import io.ankusa.store.Durability;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Archive obligations and the compactor. */
class ArchiveCompactorTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theCompactorSettlesArchivedHooksDropsRejectedAndLostOnesAndRetriesAFailedOne(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.archive(true))) {
            List<Receipt> receipts = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                Hook hook = Hook.builder().id("h" + i).sourceId("src").tenantId("t" + (i % 2)).header("x-n", "" + i)
                        .payload("payload " + i).sinks(0).build();
                receipts.add(q.ingest(hook));
            }
            assertThat(q.queue().stats().archivePending()).isEqualTo(5);
            q.store().commit(new WriteBatch().delete(ColumnFamilies.HOOKS, new HookKey(receipts.get(2).seq()).encode()),
                    Durability.SYNC);
            List<ArchivedHook> seen = new CopyOnWriteArrayList<>();
            boolean[] failOnce = {true};
            ArchiveCompactor compactor = ArchiveCompactor.manual(q.queue(), hook -> {
                if (hook.seq() == receipts.get(3).seq() && failOnce[0]) {
                    failOnce[0] = false;
                    throw new java.io.IOException("archive store unavailable");
                }
                seen.add(hook);
                return hook.seq() == receipts.get(1).seq() ? ArchiveOutcome.REJECTED : ArchiveOutcome.ARCHIVED;
            });

            assertThat(compactor.compact(100)).as("h1 settled, h2 rejected, h3 gone; h4 failed and stops the round").isEqualTo(3);
            assertThat(q.queue().stats().archivePending()).isEqualTo(2);
            assertThat(seen).extracting(ArchivedHook::seq).containsExactly(receipts.get(0).seq(), receipts.get(1).seq());
            ArchivedHook first = seen.get(0);
            assertThat(first.hook().id()).isEqualTo("h1");
            assertThat(first.hook().tenant()).isEqualTo("t1");
            assertThat(first.hook().headers()).containsEntry("x-n", "1");
            assertThat(new String(first.hook().payload(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("payload 1");
            assertThat(first.receivedAt()).isEqualTo(Instant.ofEpochMilli(QueueUnderTest.EPOCH));
            IndexFold.of(q.store()).assertCountersMatch(q.store());

            assertThat(compactor.compact(100)).isEqualTo(2);
            assertThat(q.queue().stats().archivePending()).isZero();
            assertThat(q.queue().pendingForTenant("t0").pending()).as("archiving does not touch deliveries").isEqualTo(2);
            assertThat(compactor.compact(100)).isZero();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
            assertThatThrownBy(() -> compactor.compact(0)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void withTheArchiveOffIngestWritesNoObligation(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("h", "t", 0, 1));
            assertThat(q.queue().stats().archivePending()).isZero();
            assertThat(ArchiveCompactor.manual(q.queue(), h -> {
                throw new AssertionError("nothing to archive");
            }).compact(10)).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aStartedCompactorArchivesOnItsOwnThreadUntilClosed(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.archive(true))) {
            for (int i = 0; i < 300; i++) {
                q.queue().ingest(QueueUnderTest.hook("h" + i, "t", 0));
            }
            q.ingest(QueueUnderTest.hook("last", "t", 0));
            CountDownLatch all = new CountDownLatch(301);
            List<String> threads = new CopyOnWriteArrayList<>();
            ArchiveCompactor compactor = ArchiveCompactor.start(q.queue(), hook -> {
                threads.add(Thread.currentThread().getName());
                all.countDown();
                return ArchiveOutcome.ARCHIVED;
            }, Duration.ofMillis(5));
            assertThat(all.await(60, TimeUnit.SECONDS)).isTrue();
            compactor.close();
            assertThat(q.queue().stats().archivePending()).as("the round in progress commits before close returns").isZero();
            assertThat(threads).containsOnly("ankusa-archive-compactor");
            compactor.close();
        }
    }
}
