package io.ankusa.queue.deliveries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.keys.ActiveKey;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.CounterKey;
import io.ankusa.keys.DueKey;
import io.ankusa.keys.Prefixes;
import io.ankusa.queue.ledger.DeadRow;
import io.ankusa.queue.ledger.DueKind;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.store.WriteBatch;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveriesTest {

    /** Net counter merges of a batch for one ordinal: field number -> delta. */
    private static Map<Integer, Long> counters(DeliveryBatch b, long ord) {
        Map<Integer, Long> out = new HashMap<>();
        for (WriteBatch.Op op : b.toWriteBatch().ops()) {
            if (op instanceof WriteBatch.Merge m) {
                CounterKey k = CounterKey.decode(m.key());
                if (k.ord() == ord) {
                    out.merge(k.field(), m.delta(), Long::sum);
                }
            }
        }
        return out;
    }

    private static long puts(DeliveryBatch b, byte prefix) {
        return b.toWriteBatch().ops().stream().filter(op -> op instanceof WriteBatch.Put p
                && p.family().equals(ColumnFamilies.INDEX) && p.key()[0] == prefix).count();
    }

    @Test
    void dueOpsAlwaysPutTheMarkerCoalescedPerTenantSecond() {
        DeliveryBatch b = new DeliveryBatch();
        Deliveries.dueOps(b, 4, 10_000, 1, 0, 50, DueKind.FIRST_ATTEMPT);
        Deliveries.dueOps(b, 4, 10_999, 2, 0, 50, DueKind.RETRY);
        Deliveries.dueOps(b, 4, 11_000, 3, 0, 50, DueKind.FIRST_ATTEMPT);
        Deliveries.dueOps(b, 5, 10_000, 4, 0, 50, DueKind.FIRST_ATTEMPT);
        assertThat(puts(b, Prefixes.DUE)).isEqualTo(4);
        assertThat(puts(b, Prefixes.ACTIVE)).isEqualTo(3);
        assertThat(counters(b, 4)).containsOnly(Map.entry(1, 2L), Map.entry(2, 1L));
        assertThat(counters(b, 0)).containsOnly(Map.entry(1, 3L), Map.entry(2, 1L));
    }

    @Test
    void ingestCountsPendingAndBytesPerSinkAndOneArchiveObligationPerHook() {
        DeliveryBatch b = new DeliveryBatch();
        Deliveries.ingestOps(b, 2, 77, List.of(0, 1, 2), 100, 5_000, true);
        assertThat(counters(b, 2)).containsOnly(Map.entry(1, 3L), Map.entry(5, 300L), Map.entry(6, 1L));
        assertThat(puts(b, Prefixes.ARCHIVE)).isEqualTo(1);
        assertThat(puts(b, Prefixes.ACTIVE)).isEqualTo(1);
    }

    @Test
    void eachTransitionCarriesTheSpecsDeltas() {
        DueRow first = new DueRow(3, 1000, 9, 1, 40, DueKind.FIRST_ATTEMPT);
        DueRow retry = new DueRow(3, 1000, 9, 2, 40, DueKind.RETRY);
        InflightRow inflight = new InflightRow(3, 9, 1, 40);
        DeadRow dead = new DeadRow(3, 2000, 9, 1);

        assertDeltas(b -> Deliveries.claimOps(b, first), Map.of(1, -1L, 3, 1L));
        assertDeltas(b -> Deliveries.claimOps(b, retry), Map.of(2, -1L, 3, 1L));
        assertDeltas(b -> Deliveries.deliveredOps(b, inflight), Map.of(3, -1L, 5, -40L));
        assertDeltas(b -> Deliveries.orphanDropOps(b, inflight), Map.of(3, -1L, 5, -40L));
        assertDeltas(b -> Deliveries.retryOps(b, inflight, DeliveryRow.fresh(40).failed(1, 5, "x"), 9000),
                Map.of(2, 1L, 3, -1L));
        assertDeltas(b -> Deliveries.deadOps(b, inflight, DeliveryRow.fresh(40), 5, "s", "h"), Map.of(3, -1L, 4, 1L));
        assertDeltas(b -> Deliveries.recoverInflightOps(b, inflight, 5), Map.of(1, 1L, 3, -1L));
        assertDeltas(b -> Deliveries.reviveOps(b, dead, DeliveryRow.fresh(40), 5), Map.of(1, 1L, 4, -1L));
        assertDeltas(b -> Deliveries.purgeDueOps(b, retry), Map.of(2, -1L, 5, -40L));
        assertDeltas(b -> Deliveries.purgeDeadOps(b, dead, 40), Map.of(4, -1L, 5, -40L));
        assertDeltas(b -> Deliveries.archiveSettleOps(b, 9, new io.ankusa.keys.ArchiveKey.Value(40, 3)), Map.of(6, -1L));
        assertDeltas(b -> Deliveries.archiveDropOps(b, 9, new io.ankusa.keys.ArchiveKey.Value(40, 3)), Map.of(6, -1L));
        assertDeltas(b -> Deliveries.expandOps(b, 3, 9, List.of(4), 40, 5), Map.of(1, 1L, 5, 40L));
        assertDeltas(b -> Deliveries.migratedDueOps(b, 3, 5, 9, 1, 40, DueKind.RETRY), Map.of(2, 1L, 5, 40L));
        assertDeltas(b -> Deliveries.migratedInflightOps(b, 3, 9, 1, 40), Map.of(3, 1L, 5, 40L));
        assertDeltas(b -> Deliveries.migratedDeadOps(b, 3, 5, 9, 1, 40, "s", "h"), Map.of(4, 1L, 5, 40L));
        assertDeltas(b -> Deliveries.migratedArchiveOps(b, 9, 40, 3), Map.of(6, 1L));
    }

    private static void assertDeltas(java.util.function.Consumer<DeliveryBatch> builder, Map<Integer, Long> expected) {
        DeliveryBatch b = new DeliveryBatch();
        builder.accept(b);
        assertThat(counters(b, 3)).isEqualTo(expected);
        assertThat(counters(b, 0)).isEqualTo(expected);
    }

    @Test
    void counterCarryingKeysCannotBeWrittenAroundTheBuilders() {
        DeliveryBatch b = new DeliveryBatch();
        byte[] due = new DueKey(1, 1, 1, 1).encode();
        assertThatThrownBy(() -> b.put(ColumnFamilies.INDEX, due, new byte[5])).hasMessageContaining("Deliveries");
        assertThatThrownBy(() -> b.delete(ColumnFamilies.INDEX, new ActiveKey(1, 1).encode())).hasMessageContaining("Deliveries");
        assertThatThrownBy(() -> b.put(ColumnFamilies.COUNTERS, new byte[5], new byte[8])).hasMessageContaining("counter deltas");
        assertThatThrownBy(() -> b.deleteRange(ColumnFamilies.INDEX, new byte[] {'c'}, new byte[] {'e'}))
                .hasMessageContaining("one prefix");
        b.deleteRange(ColumnFamilies.INDEX, new byte[] {'d'}, new byte[] {'e'});
        b.put(ColumnFamilies.HOOKS, new byte[8], new byte[1]);
        assertThat(b.toWriteBatch().size()).isEqualTo(2);
    }
}
