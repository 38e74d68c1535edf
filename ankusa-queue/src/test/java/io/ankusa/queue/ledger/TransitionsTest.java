package io.ankusa.queue.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueStats;
import io.ankusa.api.TenantStats;
import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One delivery walked through every transition, with the exact counters after each step. */
class TransitionsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void eachTransitionMovesExactlyItsCounters(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir, b -> b.archive(true))) {
            DeliveryLedger ledger = q.ledger();
            q.ingest(QueueUnderTest.hook("h1", "acme", 0, 1));
            long ord = q.ord("acme").orElseThrow();
            long size = ledger.firstDue(ord).orElseThrow().size();
            assertThat(size).isPositive();
            check(q, ord, new TenantStats(2, 0, 0, 0, 2 * size), 0, 1);

            List<DueRow> due = ledger.dueForTenant(ord, q.clock().millis(), 0, 10, Long.MAX_VALUE);
            assertThat(due).hasSize(2).allMatch(r -> r.kind() == DueKind.FIRST_ATTEMPT);
            Claim claim = ledger.claim(ord, due);
            assertThat(claim.claimed()).hasSize(2);
            assertThat(claim.orphans()).isEmpty();
            assertThat(ledger.claim(ord, due).claimed()).as("a row is claimed once").isEmpty();
            check(q, ord, new TenantStats(0, 0, 2, 0, 2 * size), 0, 1);

            ClaimedDelivery first = claim.claimed().get(0);
            ClaimedDelivery second = claim.claimed().get(1);
            assertThat(first.attempt()).isEqualTo(1);
            assertThat(first.tenantId()).isEqualTo("acme");
            assertThat(new String(first.payload(), java.nio.charset.StandardCharsets.UTF_8)).contains("h1");

            ledger.retry(first, q.clock().millis() + 5_000, "HTTP 503");
            check(q, ord, new TenantStats(0, 1, 1, 0, 2 * size), 0, 1);
            ledger.retry(first, q.clock().millis() + 5_000, "again");
            check(q, ord, new TenantStats(0, 1, 1, 0, 2 * size), 0, 1);

            ledger.dead(second, "HTTP 410");
            check(q, ord, new TenantStats(0, 1, 0, 1, 2 * size), 1, 1);

            assertThat(ledger.revive(ord, ledger.deadRows(ord, 10))).isEqualTo(1);
            check(q, ord, new TenantStats(1, 1, 0, 0, 2 * size), 0, 1);

            q.clock().advance(10_000);
            List<DueRow> again = ledger.dueForTenant(ord, q.clock().millis(), 0, 10, Long.MAX_VALUE);
            assertThat(again).extracting(DueRow::kind).containsExactlyInAnyOrder(DueKind.RETRY, DueKind.FIRST_ATTEMPT);
            Claim second2 = ledger.claim(ord, again);
            assertThat(second2.claimed()).extracting(ClaimedDelivery::attempt).containsExactlyInAnyOrder(2, 1);
            check(q, ord, new TenantStats(0, 0, 2, 0, 2 * size), 0, 1);

            second2.claimed().forEach(d -> ledger.delivered(d.row()));
            ledger.delivered(second2.claimed().get(0).row());
            check(q, ord, new TenantStats(0, 0, 0, 0, 0), 0, 1);

            assertThat(q.engine().archive().settle(q.engine().archive().oldest(1).get(0))).isTrue();
            check(q, ord, new TenantStats(0, 0, 0, 0, 0), 0, 0);
        }
    }

    private static void check(QueueUnderTest q, long ord, TenantStats tenant, long dead, long archive) {
        assertThat(q.queue().pendingForTenant("acme")).isEqualTo(tenant);
        assertThat(q.queue().deadForTenant("acme").dead()).isEqualTo(dead);
        assertThat(q.queue().stats()).isEqualTo(new QueueStats(tenant.pending(), tenant.scheduled(), tenant.inflight(),
                dead, tenant.bytes(), archive));
        IndexFold.of(q.store()).assertCountersMatch(q.store());
        assertThat(ord).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void aTransitionTrustsTheStoredRowNotTheCallersCopy(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            DeliveryLedger ledger = q.ledger();
            q.ingest(QueueUnderTest.hook("h1", "acme", 0));
            DueRow row = ledger.firstDue(1).orElseThrow();
            DueRow forged = new DueRow(row.ord(), row.at(), row.seq(), row.sink(), row.size() + 1000, DueKind.RETRY);
            Claim claim = ledger.claim(1, List.of(forged, row, forged));
            assertThat(claim.claimed()).hasSize(1);
            ClaimedDelivery d = claim.claimed().get(0);
            ledger.settle(List.of(new io.ankusa.queue.ledger.Settlement.Delivered(d.row()),
                    new io.ankusa.queue.ledger.Settlement.Dead(d, "twice in one batch")));
            ledger.delivered(d.row());
            assertThat(q.queue().stats()).isEqualTo(new QueueStats(0, 0, 0, 0, 0, 0));
            IndexFold.of(q.store()).assertCountersMatch(q.store());
        }
    }
}
