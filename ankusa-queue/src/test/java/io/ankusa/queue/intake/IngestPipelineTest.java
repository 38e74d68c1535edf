package io.ankusa.queue.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.store.StoreException;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.HeldWriteStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ingest writer assembles the next batch while a committer thread writes
 * the previous one, on the state the batches in flight leave (new tenants' ordinals, dedupe keys);
 * a failed write fails every batch assembled on it.
 */
class IngestPipelineTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theNextBatchIsAssembledDuringAWriteOnTheOrdinalsAndDedupeKeysItLeaves(String backend) throws Exception {
        AtomicReference<HeldWriteStore> store = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            store.set(new HeldWriteStore(s));
            return store.get();
        })) {
            HeldWriteStore held = store.get();
            held.holdNextWrite(ColumnFamilies.HOOKS, false);
            CompletableFuture<Receipt> first = q.queue().ingest(keyed("a1", "t", "k"));
            held.awaitHeld();

            CompletableFuture<Receipt> repeat = q.queue().ingest(keyed("a2", "t", "k"));
            CompletableFuture<Receipt> sameTenant = q.queue().ingest(QueueUnderTest.hook("b1", "t", 0));
            CompletableFuture<Receipt> newTenant = q.queue().ingest(QueueUnderTest.hook("c1", "u", 0));
            // The writer resolves the next batch's tenants while the first batch's write is held.
            held.awaitRead(ColumnFamilies.TENANTS, new OrdByTenantKey("u").encode());
            assertThat(first).as("acknowledged before its batch was written").isNotDone();
            assertThat(repeat).isNotDone();

            assertThat(q.ledger().dueStamps().heldCount()).as("the batches in flight hold their stamps").isPositive();
            held.release();
            Receipt original = QueueUnderTest.await(first);
            assertThat(QueueUnderTest.await(repeat)).as("a repeat of a hook in flight is a repeat").isEqualTo(original);
            QueueUnderTest.await(sameTenant);
            QueueUnderTest.await(newTenant);
            assertThat(q.ledger().dueStamps().heldCount()).as("written: the stamps are released").isZero();
            assertKept(q);
            q.reopen();
            assertKept(q);
        }
    }

    private static void assertKept(QueueUnderTest q) {
        long t = q.ord("t").orElseThrow();
        long u = q.ord("u").orElseThrow();
        assertThat(t).isNotEqualTo(u);
        assertThat(q.name(t)).hasValue("t");
        assertThat(q.name(u)).hasValue("u");
        assertThat(q.queue().pendingForTenant("t").pending()).as("both hooks of t under one ordinal").isEqualTo(2);
        assertThat(q.queue().pendingForTenant("u").pending()).isEqualTo(1);
        assertThat(q.queue().stats().pending()).as("the repeat was not stored").isEqualTo(3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aFailedWriteFailsEveryBatchAssembledOnItAndTheQueueGoesOn(String backend) throws Exception {
        AtomicReference<HeldWriteStore> store = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            store.set(new HeldWriteStore(s));
            return store.get();
        })) {
            HeldWriteStore held = store.get();
            held.holdNextWrite(ColumnFamilies.HOOKS, true);
            CompletableFuture<Receipt> first = q.queue().ingest(keyed("a1", "t", "k"));
            held.awaitHeld();

            CompletableFuture<Receipt> repeat = q.queue().ingest(keyed("a2", "t", "k"));
            CompletableFuture<Receipt> sameTenant = q.queue().ingest(QueueUnderTest.hook("b1", "t", 0));
            CompletableFuture<Receipt> newTenant = q.queue().ingest(QueueUnderTest.hook("c1", "u", 0));
            held.awaitRead(ColumnFamilies.TENANTS, new OrdByTenantKey("u").encode());

            held.release();
            for (CompletableFuture<Receipt> f : java.util.List.of(first, repeat, sameTenant, newTenant)) {
                assertThatThrownBy(() -> QueueUnderTest.await(f)).isInstanceOf(StoreException.class);
            }

            // Nothing of them was written, and no stamp of theirs is held (the marker cleanup would
            // keep every marker from their second on).
            assertThat(q.ledger().dueStamps().heldCount()).as("the failed batches' stamps are released").isZero();
            // The next batch starts from what is stored.
            Receipt again = q.ingest(keyed("a3", "t", "k"));
            assertThat(again.hookId()).as("the key of a failed batch is free").isEqualTo("a3");
            q.ingest(QueueUnderTest.hook("d1", "t", 0));
            assertFailedLeftNothing(q);
            q.reopen();
            assertFailedLeftNothing(q);
        }
    }

    private static void assertFailedLeftNothing(QueueUnderTest q) {
        long t = q.ord("t").orElseThrow();
        assertThat(q.name(t)).hasValue("t");
        assertThat(q.ord("u")).isEmpty();
        assertThat(q.queue().pendingForTenant("t").pending()).isEqualTo(2);
        assertThat(q.queue().stats().pending()).as("only the hooks after the failure").isEqualTo(2);
    }

    private static Hook keyed(String id, String tenant, String key) {
        return Hook.builder().id(id).sourceId("src").payload("{}").sinks(0).tenantId(tenant).idempotencyKey(key).build();
    }
}
