package io.ankusa.queue.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.Receipt;
import io.ankusa.api.TenantLimitException;
import io.ankusa.api.TenantStats;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.OrdByTenantKey;
import io.ankusa.keys.TenantByOrdKey;
import io.ankusa.store.KeyRange;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.StoreSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TenantOrdinalsTest {

    @TempDir
    Path dir;

    /** The {@code ?t} and {@code ?n} rows read straight from the store. */
    private static Map<Long, String> byOrd(Store store) {
        Map<Long, String> out = new HashMap<>();
        try (Scan scan = store.scan(ColumnFamilies.TENANTS, KeyRange.prefix(new byte[] {'t'}))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                if (!TenantByOrdKey.FAMILY.isSentinel(kv.key())) {
                    out.put(TenantByOrdKey.decode(kv.key()).ord(), TenantByOrdKey.decodeValue(kv.value()));
                }
            }
        }
        return out;
    }

    private static Map<String, Long> byTenant(Store store) {
        Map<String, Long> out = new HashMap<>();
        try (Scan scan = store.scan(ColumnFamilies.TENANTS, KeyRange.prefix(new byte[] {'n'}))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                if (!OrdByTenantKey.FAMILY.isSentinel(kv.key())) {
                    out.put(OrdByTenantKey.decode(kv.key()).tenant(), OrdByTenantKey.decodeValue(kv.value()));
                }
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void tenantOrdinalIsAssignedOnceAndNeverReused(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            // First-sight order, ord 0 never handed out, default is a tenant like any other.
            q.ingest(QueueUnderTest.hook("a1", "alpha", 0));
            q.ingest(QueueUnderTest.hook("b1", "beta", 0));
            q.ingest(QueueUnderTest.hook("d1", null, 0));
            q.ingest(QueueUnderTest.hook("a2", "alpha", 0));
            assertThat(q.ord("alpha")).hasValue(1);
            assertThat(q.ord("beta")).hasValue(2);
            assertThat(q.ord("default")).hasValue(3);
            assertThat(q.name(3)).hasValue("default");
            assertThat(q.name(0)).isEmpty();

            // Many writers, many batches, many new tenants at once: each gets exactly one ordinal.
            List<CompletableFuture<Receipt>> futures = new ArrayList<>();
            for (int i = 0; i < 600; i++) {
                futures.add(q.queue().ingest(QueueUnderTest.hook("m" + i, "tenant-" + (i % 150), 0)));
            }
            CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
            long count = q.queue().tenantCount();
            assertThat(count).isEqualTo(153);
            Map<Long, String> names = byOrd(q.store());
            Map<String, Long> ords = byTenant(q.store());
            assertThat(names.keySet()).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, 153).boxed().toList());
            assertThat(ords).hasSize(153);
            ords.forEach((tenant, ord) -> assertThat(names.get(ord)).isEqualTo(tenant));

            // A drained tenant keeps its ordinal; a reopened queue continues after the last one.
            q.engine().purge().purgeDue(1);
            assertThat(q.queue().pendingForTenant("alpha")).isEqualTo(TenantStats.EMPTY);
            q.reopen();
            q.ingest(QueueUnderTest.hook("a3", "alpha", 0));
            q.ingest(QueueUnderTest.hook("g1", "gamma", 0));
            assertThat(q.ord("alpha")).hasValue(1);
            assertThat(q.ord("gamma")).hasValue(154);
            assertThat(q.queue().tenantCount()).isEqualTo(154);
            assertThat(byOrd(q.store())).hasSize(154);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void tenantsMaxRefusesANewTenantWithTenantLimitAndNeverAnExistingOne(String backend) throws Exception {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.tenantsMax(3))) {
            q.ingest(QueueUnderTest.hook("1", "one", 0));
            q.ingest(QueueUnderTest.hook("2", "two", 0));
            q.ingest(QueueUnderTest.hook("3", "three", 0));
            List<String> before = StoreSnapshot.of(q.store());

            assertThatThrownBy(() -> q.ingest(QueueUnderTest.hook("4", "four", 0)))
                    .isInstanceOfSatisfying(TenantLimitException.class, e -> {
                        assertThat(e.error()).isEqualTo("tenant_limit");
                        assertThat(e.retryAfter()).hasSeconds(300);
                        assertThat(e.tenantsMax()).isEqualTo(3);
                    });
            assertThat(StoreSnapshot.of(q.store())).as("a refused hook writes nothing").isEqualTo(before);
            assertThat(q.ord("four")).isEmpty();
            assertThatThrownBy(() -> q.ingest(QueueUnderTest.hook("d", null, 0))).isInstanceOf(TenantLimitException.class);

            // In one batch: the new tenant's hooks fail, the existing tenants' hooks commit.
            List<CompletableFuture<Receipt>> existing = new ArrayList<>();
            List<CompletableFuture<Receipt>> fresh = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                existing.add(q.queue().ingest(QueueUnderTest.hook("e" + i, i % 2 == 0 ? "one" : "three", 0)));
                fresh.add(q.queue().ingest(QueueUnderTest.hook("f" + i, "five", 0)));
            }
            for (CompletableFuture<Receipt> f : existing) {
                assertThat(f.get(60, TimeUnit.SECONDS).seq()).isPositive();
            }
            for (CompletableFuture<Receipt> f : fresh) {
                assertThatThrownBy(() -> f.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(TenantLimitException.class);
            }
            assertThat(q.queue().pendingForTenant("one").pending()).isEqualTo(51);
            assertThat(q.queue().tenantCount()).isEqualTo(3);

            // The cap survives a reopen; existing tenants still pass.
            q.reopen();
            assertThatThrownBy(() -> q.ingest(QueueUnderTest.hook("6", "six", 0))).isInstanceOf(TenantLimitException.class);
            assertThat(q.ingest(QueueUnderTest.hook("7", "two", 0)).tenantId()).isEqualTo("two");
            assertThat(q.queue().tenantCount()).isEqualTo(3);
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }
}
