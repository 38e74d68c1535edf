package io.ankusa.queue.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.tests.queue.IndexFold;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ledger reads and the multi-tenant claim the dispatcher's pipeline, gauges and replayer use:
 * {@code claimAll}, {@code pending}, {@code deadEntries}, {@code deadPage}, {@code clock}.
 */
class DeliveryLedgerReadsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void claimAllMovesTheRowsOfManyTenantsToInflightInOneBatchAndCountsThem(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            DeliveryLedger ledger = q.ledger();
            for (int t = 0; t < 3; t++) {
                q.ingest(QueueUnderTest.hook("a" + t, "t" + t, 0, 1));
            }
            long now = q.clock().millis();
            Map<Long, List<DueRow>> rows = new LinkedHashMap<>();
            for (int t = 0; t < 3; t++) {
                long ord = q.ord("t" + t).orElseThrow();
                rows.put(ord, ledger.dueForTenant(ord, now, 0, 10, Long.MAX_VALUE));
            }
            List<DueRow> first = rows.values().iterator().next();

            Claim claim = ledger.claimAll(rows);

            assertThat(claim.claimed()).extracting(ClaimedDelivery::hookId)
                    .containsExactlyInAnyOrder("a0", "a0", "a1", "a1", "a2", "a2");
            assertThat(q.queue().stats().inflight()).isEqualTo(6);
            assertThat(q.queue().stats().pending()).isZero();
            IndexFold.of(q.store()).assertCountersMatch(q.store());
            assertThat(ledger.claimAll(rows).claimed()).as("a second claim of the same rows").isEmpty();
            assertThat(ledger.claim(first.get(0).ord(), first).claimed()).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void claimAllRefusesARowFiledUnderAnotherTenant(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            DeliveryLedger ledger = q.ledger();
            q.ingest(QueueUnderTest.hook("a", "t0", 0));
            q.ingest(QueueUnderTest.hook("b", "t1", 0));
            long now = q.clock().millis();
            long t0 = q.ord("t0").orElseThrow();
            long t1 = q.ord("t1").orElseThrow();
            List<DueRow> rowsOfT1 = ledger.dueForTenant(t1, now, 0, 10, Long.MAX_VALUE);

            assertThatThrownBy(() -> ledger.claimAll(Map.of(t0, rowsOfT1))).isInstanceOf(IllegalArgumentException.class);
            assertThat(q.queue().stats().inflight()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void pendingReadsTheCounterOfEachTenantInOrder(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            q.ingest(QueueUnderTest.hook("a", "t0", 0, 1, 2));
            q.ingest(QueueUnderTest.hook("b", "t1", 0));
            long t0 = q.ord("t0").orElseThrow();
            long t1 = q.ord("t1").orElseThrow();

            assertThat(q.ledger().pending(List.of(t1, t0, t1))).containsExactly(1, 3, 1);
            assertThat(q.ledger().pending(List.of())).isEmpty();
            assertThat(q.ledger().clock().millis()).isEqualTo(q.clock().millis());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void deadLettersArePagedNewestFirstAcrossTheNodeAndOldestFirstPerTenantWithTheirIds(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            DeliveryLedger ledger = q.ledger();
            List<String> order = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                String tenant = "t" + (i % 2);
                q.ingest(QueueUnderTest.hook("h" + i, tenant, 0));
                long ord = q.ord(tenant).orElseThrow();
                Claim claim = ledger.claim(ord, ledger.dueForTenant(ord, q.clock().millis(), 0, 10, Long.MAX_VALUE));
                ledger.dead(claim.claimed().get(0), "gone");
                order.add("h" + i);
                q.clock().advance(1000);
            }

            List<DeadEntry> newest = ledger.deadPage(Optional.empty(), 3);
            assertThat(newest).extracting(DeadEntry::hookId).containsExactly("h4", "h3", "h2");
            assertThat(newest).extracting(DeadEntry::sourceId).containsOnly("src");
            List<DeadEntry> older = ledger.deadPage(Optional.of(newest.get(2).row()), 3);
            assertThat(older).extracting(DeadEntry::hookId).containsExactly("h1", "h0");
            assertThat(ledger.deadPage(Optional.of(older.get(1).row()), 3)).isEmpty();
            assertThat(ledger.deadPage(Optional.of(new DeadRow(1, 0, 0, 0)), 3)).isEmpty();

            long t0 = q.ord("t0").orElseThrow();
            List<DeadEntry> ofT0 = ledger.deadEntries(t0, Optional.empty(), 2);
            assertThat(ofT0).extracting(DeadEntry::hookId).containsExactly("h0", "h2");
            assertThat(ofT0).extracting(e -> e.row().ord()).containsOnly(t0);
            assertThat(ledger.deadEntries(t0, Optional.of(ofT0.get(1).row()), 2)).extracting(DeadEntry::hookId)
                    .containsExactly("h4");
            assertThat(ledger.deadRows(t0, 10)).isEqualTo(ledger.deadEntries(t0, Optional.empty(), 10).stream()
                    .map(DeadEntry::row).toList());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void deleteMarkersOfManyTenantsDeletesStaleOnesAndNeverTheCurrentSecond(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            DeliveryLedger ledger = q.ledger();
            long first = q.clock().millis() / 1000;
            for (int t = 0; t < 3; t++) {
                q.ingest(QueueUnderTest.hook("a" + t, "t" + t, 0));
            }
            q.clock().advance(1_000);
            long current = q.clock().millis() / 1000;
            Map<Long, List<Long>> buckets = new LinkedHashMap<>();
            for (int t = 0; t < 3; t++) {
                long ord = q.ord("t" + t).orElseThrow();
                buckets.put(ord, List.of(first, current));
                q.ingest(QueueUnderTest.hook("b" + t, "t" + t, 0));
            }
            buckets.remove(q.ord("t2").orElseThrow());

            ledger.deleteMarkers(buckets);

            assertThat(IndexFold.of(q.store()).missingMarkers()).extracting(k -> k.bucket()).containsOnly(first).hasSize(2);
            assertThat(ledger.activeTenants(q.clock().millis(), 10)).extracting(m -> m.bucket() + "/" + m.ord())
                    .containsExactly(first + "/" + q.ord("t2").orElseThrow(), current + "/1", current + "/2",
                            current + "/3");
        }
    }
}
