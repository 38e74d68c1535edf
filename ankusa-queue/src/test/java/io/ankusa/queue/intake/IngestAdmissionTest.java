package io.ankusa.queue.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.api.Hook;
import io.ankusa.api.Rate;
import io.ankusa.api.TenantOverloadedException.Reason;
import io.ankusa.api.TenantOverloadedException;
import io.ankusa.api.TenantPolicies;
import io.ankusa.api.TenantPolicy;
import io.ankusa.tests.queue.Backends;
import io.ankusa.tests.queue.QueueUnderTest;
import io.ankusa.tests.queue.StoreSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ingest admission (TEN-2): per-tenant pending rows, pending bytes and ingest rate from the
 * tenant's policy, decided by the writer; a refusal is typed, writes nothing and touches no other
 * tenant.
 */
class IngestAdmissionTest {

    @TempDir
    Path dir;

    private int next;

    private Hook hook(String tenant) {
        return Hook.builder().id("h" + next++).sourceId("src").tenantId(tenant).payload("{}").sinks(0, 1).build();
    }

    private QueueUnderTest open(String backend, Map<String, TenantPolicy> overrides) {
        return QueueUnderTest.open(backend, dir,
                b -> b.tenantPolicies(TenantPolicies.of(TenantPolicy.DEFAULT, overrides)));
    }

    static List<String> backends() {
        return Backends.names().toList();
    }

    @ParameterizedTest(name = "a tenant over its pending limit is refused and others are not [{0}]")
    @MethodSource("backends")
    void aTenantOverItsPendingLimitIsRefusedAndOthersAreNot(String backend) {
        try (QueueUnderTest q = open(backend, Map.of("greedy", TenantPolicy.DEFAULT.withMaxPendingRows(4)))) {
            q.ingest(hook("greedy"));
            q.ingest(hook("greedy"));
            List<String> before = StoreSnapshot.of(q.store());

            assertThatThrownBy(() -> q.ingest(hook("greedy")))
                    .isInstanceOfSatisfying(TenantOverloadedException.class, e -> {
                        assertThat(e.reason()).isEqualTo(Reason.PENDING_ROWS);
                        assertThat(e.error()).isEqualTo("tenant_overloaded");
                        assertThat(e.tenant()).isEqualTo("greedy");
                        assertThat(e.retryAfter()).isPositive();
                    });
            assertThat(StoreSnapshot.of(q.store())).as("a refusal writes nothing").isEqualTo(before);
            assertThat(q.engine().writer().refusals(Reason.PENDING_ROWS)).isEqualTo(1);

            for (int i = 0; i < 10; i++) {
                q.ingest(hook("calm"));
            }
            assertThat(q.queue().pendingForTenant("calm").pending()).isEqualTo(20);
            assertThat(q.queue().pendingForTenant("greedy").pending()).isEqualTo(4);
        }
    }

    @ParameterizedTest(name = "a tenant under its limit again after dispatch drained it is admitted [{0}]")
    @MethodSource("backends")
    void aDrainedTenantIsAdmittedAgain(String backend) {
        try (QueueUnderTest q = open(backend, Map.of("greedy", TenantPolicy.DEFAULT.withMaxPendingRows(2)))) {
            q.ingest(hook("greedy"));
            assertThatThrownBy(() -> q.ingest(hook("greedy"))).isInstanceOf(TenantOverloadedException.class);

            // Dispatch claims the rows behind the writer's back: its estimate is now too high,
            // and the re-read before a refusal sees the counters fall.
            long ord = q.ord("greedy").orElseThrow();
            var due = q.ledger().dueForTenant(ord, Long.MAX_VALUE, 0, 10, Long.MAX_VALUE);
            assertThat(due).hasSize(2);
            q.ledger().claim(ord, due);

            assertThat(q.ingest(hook("greedy")).tenantId()).isEqualTo("greedy");
        }
    }

    @ParameterizedTest(name = "a tenant over its pending bytes is refused [{0}]")
    @MethodSource("backends")
    void aTenantOverItsPendingBytesIsRefused(String backend) {
        try (QueueUnderTest q = open(backend, Map.of("big", TenantPolicy.DEFAULT.withMaxPendingBytes(1)))) {
            List<String> before = StoreSnapshot.of(q.store());

            assertThatThrownBy(() -> q.ingest(hook("big")))
                    .isInstanceOfSatisfying(TenantOverloadedException.class,
                            e -> assertThat(e.reason()).isEqualTo(Reason.PENDING_BYTES));
            assertThat(StoreSnapshot.of(q.store())).as("not even the new tenant's ordinal is written").isEqualTo(before);
            assertThat(q.queue().tenantCount()).isZero();
        }
    }

    @ParameterizedTest(name = "a full node refuses with NODE_FULL and writes nothing [{0}]")
    @MethodSource("backends")
    void aFullNodeRefusesWithNodeFullAndWritesNothing(String backend) {
        try (QueueUnderTest first = QueueUnderTest.open(backend, dir, b -> b)) {
            first.ingest(hook("a"));
        }
        long oneHook;
        try (QueueUnderTest measure = QueueUnderTest.open(backend, dir, b -> b)) {
            oneHook = measure.queue().pendingForTenant("a").bytes();
        }
        assertThat(oneHook).isPositive();
        // Room for the hook already stored and one more, of any tenant, but not a third.
        Map<String, String> keys = Map.of("admission.node-max-bytes", Long.toString(3 * oneHook - 1));
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.configure(keys))) {
            q.ingest(hook("b"));
            List<String> before = StoreSnapshot.of(q.store());

            for (String tenant : List.of("a", "b", "new")) {
                assertThatThrownBy(() -> q.ingest(hook(tenant)))
                        .isInstanceOfSatisfying(TenantOverloadedException.class, e -> {
                            assertThat(e.reason()).isEqualTo(Reason.NODE_FULL);
                            assertThat(e.reason().code()).isEqualTo("node_full");
                            assertThat(e.tenant()).isEqualTo(tenant);
                            assertThat(e.retryAfter()).isPositive();
                        });
            }
            assertThat(StoreSnapshot.of(q.store())).as("a refusal writes nothing").isEqualTo(before);
            assertThat(q.engine().writer().refusals(Reason.NODE_FULL)).isEqualTo(3);
            assertThat(q.queue().tenantCount()).as("no ordinal for the new tenant").isEqualTo(2);
        }
    }

    @ParameterizedTest(name = "a rate-limited tenant is accepted at its rate [{0}]")
    @MethodSource("backends")
    void aRateLimitedTenantIsAcceptedAtItsRate(String backend) {
        try (QueueUnderTest q = open(backend, Map.of("fast", TenantPolicy.DEFAULT.withIngestRate(new Rate(10, 5))))) {
            int accepted = 0;
            int refused = 0;
            for (int step = 0; step <= 20; step++) {
                for (int i = 0; i < 3; i++) {
                    try {
                        q.ingest(hook("fast"));
                        accepted++;
                    } catch (TenantOverloadedException e) {
                        assertThat(e.reason()).isEqualTo(Reason.INGEST_RATE);
                        assertThat(e.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(100));
                        refused++;
                    }
                    q.ingest(hook("other"));
                }
                q.clock().advance(100);
            }
            // A full bucket of 5 at the start, then one token per 100 ms over 2 s.
            assertThat(accepted).isEqualTo(5 + 20);
            assertThat(refused).isEqualTo(63 - 25);
            assertThat(q.engine().writer().refusals(Reason.INGEST_RATE)).isEqualTo(refused);
            assertThat(q.queue().pendingForTenant("other").pending()).as("others unaffected").isEqualTo(2 * 63);
        }
    }
}
