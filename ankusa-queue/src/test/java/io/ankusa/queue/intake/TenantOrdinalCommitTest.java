package io.ankusa.queue.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.CounterKey;
import io.ankusa.keys.MetaKeys;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.keys.Prefixes;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.store.StoreException;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.support.InterruptingStore;
import io.ankusa.tests.support.RecordingStore;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tenant ordinals across failed commits: a failed commit that allocates
 * tenants, and the batch that carries a new ordinal's rows.
 */
class TenantOrdinalCommitTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void failedCommitNeverHandsOutItsOrdinalsAgain(String backend) {
        AtomicReference<InterruptingStore> store = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            store.set(new InterruptingStore(s));
            return store.get();
        })) {
            q.ingest(QueueUnderTest.hook("a1", "a", 0));
            assertThat(q.ord("a")).hasValue(1);
            int cachedBefore = q.engine().ordinals().cachedCount();

            store.get().failCommit(1, b -> true);
            assertThatThrownBy(() -> q.ingest(QueueUnderTest.hook("x1", "x", 0))).isInstanceOf(StoreException.class);

            // Nothing of the failed commit is visible: no ?t/?n rows, no cache entry, no ordinal.
            assertThat(q.engine().ordinals().cachedCount()).as("nothing cached by a failed commit").isEqualTo(cachedBefore);
            assertThat(q.ord("x")).isEmpty();
            assertThat(q.name(2)).isEmpty();
            assertThat(q.store().get(ColumnFamilies.TENANTS, new OrdByTenantKey("x").encode())).isEmpty();
            assertThat(q.store().get(ColumnFamilies.TENANTS, new TenantByOrdKey(2).encode())).isEmpty();
            assertThat(q.store().get(ColumnFamilies.DEFAULT, MetaKeys.NEXT_ORD).map(v -> MetaKeys.decodeU32("m:next_ord", v)))
                    .hasValue(2L);

            // The next allocation skips the failed commit's ordinal; the retried tenant gets a fresh one.
            q.ingest(QueueUnderTest.hook("z1", "z", 0));
            q.ingest(QueueUnderTest.hook("x2", "x", 0));
            assertThat(q.ord("z")).as("ordinal 2 may have landed with the failed commit: never again").hasValue(3);
            assertThat(q.ord("x")).hasValue(4);
            assertThat(q.name(3)).hasValue("z");
            assertThat(q.name(4)).hasValue("x");
            assertThat(q.name(2)).isEmpty();
            assertThat(q.queue().pendingForTenant("x").pending()).isEqualTo(1);

            q.reopen();
            assertThat(q.ord("z")).hasValue(3);
            assertThat(q.ord("x")).hasValue(4);
            q.ingest(QueueUnderTest.hook("n1", "new", 0));
            assertThat(q.ord("new")).hasValue(5);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aNewOrdinalsRowsRideInTheSameSyncedBatchAsTheFirstRowsThatUseIt(String backend) {
        AtomicReference<RecordingStore> store = new AtomicReference<>();
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b, s -> {
            store.set(new RecordingStore(s));
            return store.get();
        })) {
            store.get().clear();
            for (String tenant : List.of("a", "b", "a", "c", "b", "d")) {
                q.ingest(QueueUnderTest.hook(tenant + System.nanoTime(), tenant, 0, 1));
            }
            Set<Long> seen = new HashSet<>();
            int allocations = 0;
            for (RecordingStore.Call call : store.get().calls("commit")) {
                WriteBatch batch = call.batch().orElseThrow();
                Set<Long> allocated = new HashSet<>();
                Set<Long> used = new HashSet<>();
                for (WriteBatch.Op op : batch.ops()) {
                    if (op instanceof WriteBatch.Put put && put.family().equals(ColumnFamilies.TENANTS)
                            && put.key().length == TenantByOrdKey.LENGTH && put.key()[0] == Prefixes.TENANT_BY_ORD) {
                        allocated.add(TenantByOrdKey.decode(put.key()).ord());
                    }
                    if (op instanceof WriteBatch.Merge merge && merge.family().equals(ColumnFamilies.COUNTERS)) {
                        long ord = CounterKey.decode(merge.key()).ord();
                        if (ord != 0) {
                            used.add(ord);
                        }
                    }
                }
                for (long ord : used) {
                    if (!seen.contains(ord)) {
                        assertThat(allocated).as("ordinal %d is first used in the batch that allocates it", ord).contains(ord);
                    }
                }
                for (long ord : allocated) {
                    assertThat(used).as("ordinal %d is allocated in a batch that uses it", ord).contains(ord);
                    assertThat(seen.add(ord)).as("ordinal %d allocated once", ord).isTrue();
                    allocations++;
                }
                seen.addAll(used);
            }
            assertThat(allocations).isEqualTo(4);
        }
    }
}
