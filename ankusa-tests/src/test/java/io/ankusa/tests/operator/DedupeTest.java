package io.ankusa.tests.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantLimitException;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.DedupeExpiryKey;
import io.ankusa.keys.DedupeKey;
import io.ankusa.keys.KeySpan;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.StoreSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Dedupe by idempotency key within its window, across reopens and within one batch. */
class DedupeTest {

    private static final Duration WINDOW = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private static QueueUnderTest open(String backend, Path dir) {
        return QueueUnderTest.open(backend, dir, b -> b.dedupeWindow(WINDOW));
    }

    private static Hook keyed(String id, String tenant, String key) {
        Hook.Builder b = Hook.builder().id(id).sourceId("src").payload("{}").sinks(0, 1).idempotencyKey(key);
        if (tenant != null) {
            b.tenantId(tenant);
        }
        return b.build();
    }

    private static List<DedupeExpiryKey> expiryKeys(Store store) {
        List<DedupeExpiryKey> out = new ArrayList<>();
        KeySpan span = DedupeExpiryKey.FAMILY.between();
        try (Scan scan = store.scan(ColumnFamilies.INDEX, KeyRange.of(span.from(), span.to()))) {
            scan.forEachRemaining(kv -> out.add(DedupeExpiryKey.decode(kv.key())));
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRepeatReturnsTheOriginalReceiptAndWritesNothing(String backend) {
        try (QueueUnderTest q = open(backend, dir)) {
            Receipt original = q.ingest(keyed("order-1", "acme", "k1"));
            List<String> before = StoreSnapshot.of(q.store());
            q.clock().advance(WINDOW.toMillis() - 1);

            Receipt repeat = q.ingest(keyed("order-1-retry", "acme", "k1"));

            assertThat(repeat).isEqualTo(original);
            assertThat(StoreSnapshot.of(q.store())).as("nothing written").isEqualTo(before);
            assertThat(q.queue().pendingForTenant("acme").pending()).isEqualTo(2);
            assertThat(q.ingest(keyed("other-tenant", "globex", "k1")).seq()).as("keys are per tenant").isGreaterThan(original.seq());
            assertThat(q.ingest(keyed("default-tenant", null, "k1")).tenantId()).isEqualTo("default");
            assertThat(q.ingest(QueueUnderTest.hook("no-key", "acme", 0)).seq()).isEqualTo(original.seq() + 3);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void afterExpiryANewHookIsAcceptedAndThenDeduplicatesInItsOwnWindow(String backend) {
        try (QueueUnderTest q = open(backend, dir)) {
            Receipt first = q.ingest(keyed("a", "acme", "k"));
            q.clock().advance(WINDOW.toMillis());

            Receipt second = q.ingest(keyed("b", "acme", "k"));

            assertThat(second.seq()).isEqualTo(first.seq() + 1);
            assertThat(second.hookId()).isEqualTo("b");
            assertThat(q.queue().pendingForTenant("acme").pending()).isEqualTo(4);
            q.clock().advance(WINDOW.toMillis() - 1);
            assertThat(q.ingest(keyed("c", "acme", "k"))).isEqualTo(second);
            assertThat(expiryKeys(q.store())).as("the replaced entry's expiry key went with it")
                    .containsExactly(new DedupeExpiryKey(QueueUnderTest.EPOCH + 2 * WINDOW.toMillis(), "acme", "k"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aRepeatAfterAReopenIsStillARepeat(String backend) {
        try (QueueUnderTest q = open(backend, dir)) {
            Receipt original = q.ingest(keyed("a", "acme", "k"));
            q.reopen();
            assertThat(q.ingest(keyed("a", "acme", "k"))).isEqualTo(original);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void twoHooksWithOneKeyInOneBatchAreQueuedOnce(String backend) throws Exception {
        try (QueueUnderTest q = open(backend, dir)) {
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Object> held = q.engine().writer().submitChore(() -> {
                holding.countDown();
                await(release);
                return null;
            });
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Receipt> leader = q.queue().ingest(keyed("x1", "acme", "k"));
            CompletableFuture<Receipt> follower = q.queue().ingest(keyed("x2", "acme", "k"));
            CompletableFuture<Receipt> other = q.queue().ingest(keyed("y", "acme", "other"));
            release.countDown();
            held.get(30, TimeUnit.SECONDS);

            Receipt receipt = QueueUnderTest.await(leader);
            assertThat(QueueUnderTest.await(follower)).isEqualTo(receipt);
            assertThat(QueueUnderTest.await(other).seq()).as("one batch, one seq for the pair").isEqualTo(receipt.seq() + 1);
            assertThat(q.queue().pendingForTenant("acme").pending()).isEqualTo(4);
            assertThat(q.queue().stats().pending()).isEqualTo(4);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anInBatchRepeatOfARefusedHookIsRefusedTheSameWay(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.tenantsMax(1))) {
            q.ingest(QueueUnderTest.hook("first", "only", 0));
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            q.engine().writer().submitChore(() -> {
                holding.countDown();
                await(release);
                return null;
            });
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Receipt> leader = q.queue().ingest(keyed("x1", "second", "k"));
            CompletableFuture<Receipt> follower = q.queue().ingest(keyed("x2", "second", "k"));
            release.countDown();
            assertThatThrownBy(() -> QueueUnderTest.await(leader)).isInstanceOf(TenantLimitException.class);
            assertThatThrownBy(() -> QueueUnderTest.await(follower)).isInstanceOf(TenantLimitException.class);
            assertThat(q.ingest(keyed("x3", "only", "k")).hookId()).isEqualTo("x3");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theDedupeSweepRemovesExpiredKeysOnlyInBoundedBatches(String backend) {
        try (QueueUnderTest q = open(backend, dir)) {
            for (int i = 0; i < 5; i++) {
                q.ingest(keyed("early" + i, "acme", "early" + i));
            }
            q.clock().advance(WINDOW.toMillis() / 2);
            Receipt late = q.ingest(keyed("late", "acme", "late"));
            q.clock().advance(WINDOW.toMillis() / 2);

            long now = q.clock().millis();
            assertThat(sweep(q, now, 2)).isEqualTo(2);
            assertThat(sweep(q, now, 100)).isEqualTo(3);
            assertThat(sweep(q, now, 100)).isZero();

            assertThat(expiryKeys(q.store())).containsExactly(DedupeExpiryKey.of(now + WINDOW.toMillis() / 2, new DedupeKey("acme", "late")));
            assertThat(q.store().get(ColumnFamilies.INDEX, new DedupeKey("acme", "early0").encode())).isEmpty();
            assertThat(q.ingest(keyed("late-again", "acme", "late"))).isEqualTo(late);
            assertThat(q.ingest(keyed("early-again", "acme", "early0")).hookId()).isEqualTo("early-again");
            assertThat(q.engine().housekeeping().sweepDedupe()).as("the housekeeping round sweeps nothing left").isZero();
        }
    }

    private static int sweep(QueueUnderTest q, long now, int limit) {
        return q.engine().writer().submitChore(() -> q.engine().idempotencyKeys().sweep(now, limit)).join();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("test latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
