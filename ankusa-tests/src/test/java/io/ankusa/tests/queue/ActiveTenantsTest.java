package io.ankusa.tests.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ActiveTenantsTest {

    @TempDir
    Path dir;

    private static Set<Long> active(DeliveryLedger ledger, long now) {
        Set<Long> out = new TreeSet<>();
        for (ActiveTenant t : ledger.activeTenants(now, 4096)) {
            out.add(t.ord());
        }
        return out;
    }

    private static Claim claimAll(QueueUnderTest q, long ord) {
        return q.ledger().claim(ord, q.ledger().dueForTenant(ord, q.clock().millis(), 0, 100, Long.MAX_VALUE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void activeTenantsReturnsOnlyTenantsWithDueRows(String backend) {
        try (QueueUnderTest q = QueueUnderTest.open(backend, dir)) {
            DeliveryLedger ledger = q.ledger();
            for (String tenant : new String[] {"due", "later", "dead", "done", "inflight", "purged"}) {
                q.ingest(QueueUnderTest.hook(tenant + "-1", tenant, 0, 1));
            }
            for (int i = 0; i < 40; i++) {
                q.ingest(QueueUnderTest.hook("idle-" + i, "idle-" + i, 0));
            }
            long due = q.ord("due").orElseThrow();
            long later = q.ord("later").orElseThrow();
            // Every tenant with rows due now is active, and no other.
            assertThat(active(ledger, q.clock().millis())).hasSize(46).contains(due, later);

            // idle-*: retried an hour ahead; later: the same; dead: dead-lettered; done: delivered;
            // inflight: claimed and held; purged: purged.
            for (int i = 0; i < 40; i++) {
                long ord = q.ord("idle-" + i).orElseThrow();
                claimAll(q, ord).claimed().forEach(d -> ledger.retry(d, q.clock().millis() + 3_600_000, "later"));
            }
            claimAll(q, later).claimed().forEach(d -> ledger.retry(d, q.clock().millis() + 3_600_000, "later"));
            claimAll(q, q.ord("dead").orElseThrow()).claimed().forEach(d -> ledger.dead(d, "gone"));
            claimAll(q, q.ord("done").orElseThrow()).claimed().forEach(d -> ledger.delivered(d.row()));
            Claim held = claimAll(q, q.ord("inflight").orElseThrow());
            assertThat(held.claimed()).hasSize(2);
            q.engine().purge().purgeDue(q.ord("purged").orElseThrow());

            q.clock().advance(2_000);
            MarkerCleanup.runTick(ledger, q.clock().millis());
            assertThat(active(ledger, q.clock().millis())).containsExactly(due);
            assertThat(ledger.activeTenants(q.clock().millis(), 4096))
                    .allMatch(t -> ledger.firstDue(t.ord()).isPresent());

            // A new due row makes its tenant active again; the scheduled rows become active when due.
            q.ingest(QueueUnderTest.hook("done-2", "done", 0));
            assertThat(active(ledger, q.clock().millis())).containsExactly(due, q.ord("done").orElseThrow());
            q.clock().advance(3_600_000);
            assertThat(active(ledger, q.clock().millis())).hasSize(43).contains(later);
            for (ClaimedDelivery d : held.claimed()) {
                ledger.delivered(d.row());
            }
            IndexFold fold = IndexFold.of(q.store());
            fold.assertEveryDueRowHasAMarker();
            fold.assertCountersMatch(q.store());
        }
    }
}
