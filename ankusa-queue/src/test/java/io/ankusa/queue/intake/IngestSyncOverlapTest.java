package io.ankusa.queue.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Receipt;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.store.Durability;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.HeldSyncStore;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ingest writer writes a batch unsynced and a second thread syncs it before its
 * receipts complete, so the next batch is assembled and written while the fsync runs.
 */
class IngestSyncOverlapTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aReceiptWaitsForTheSyncOfItsBatchAndTheNextBatchIsWrittenWhileThatSyncRuns(String backend) throws Exception {
        AtomicReference<HeldSyncStore> store = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            store.set(new HeldSyncStore(s));
            return store.get();
        })) {
            HeldSyncStore held = store.get();
            int opened = held.commits().size();
            held.holdNextSync();
            CompletableFuture<Receipt> first = q.queue().ingest(QueueUnderTest.hook("first", "a", 0));
            held.awaitHeld();
            held.awaitPuts(ColumnFamilies.HOOKS, 1);
            assertThat(first).as("acknowledged before its sync returned").isNotDone();

            CompletableFuture<Receipt> second = q.queue().ingest(QueueUnderTest.hook("second", "b", 0, 1));
            // Written while the first batch's fsync is still held: assembly and write overlap it.
            held.awaitPuts(ColumnFamilies.HOOKS, 2);
            assertThat(first).isNotDone();
            assertThat(second).as("acknowledged before any sync covered it").isNotDone();

            held.release();
            Receipt one = first.get(60, TimeUnit.SECONDS);
            Receipt two = second.get(60, TimeUnit.SECONDS);
            assertThat(two.seq()).isGreaterThan(one.seq());
            // Every batch holding a hook was written unsynced; a synced commit followed each.
            List<HeldSyncStore.Commit> ingest = held.commits().subList(opened, held.commits().size());
            assertThat(ingest).filteredOn(c -> c.putsInto(ColumnFamilies.HOOKS) > 0).hasSize(2)
                    .extracting(HeldSyncStore.Commit::durability).containsOnly(Durability.ASYNC);
            assertThat(ingest.get(ingest.size() - 1).durability()).isEqualTo(Durability.SYNC);
            assertThat(q.queue().stats().pending()).isEqualTo(3);
        }
        try (QueueUnderTest again = QueueUnderTest.open(backend, dir)) {
            assertThat(again.queue().stats().pending()).as("both batches kept across a reopen").isEqualTo(3);
        }
    }
}
