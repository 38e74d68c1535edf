package io.ankusa.tests.crash;

import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.Claim;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.InflightRow;
import io.ankusa.queue.ledger.Settlement;
import io.ankusa.dispatch.pipeline.MarkerCleanup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * A dispatcher driven straight through the queue's delivery ledger, for the crash test's child:
 * each round claims from the active tenants (one synced claim per tenant), then settles everything
 * it claimed in one synced batch with a random outcome per delivery (delivered, retry a few
 * milliseconds later, dead) and drops orphans, cleaning each visited tenant's stale markers as the
 * pipeline does (the dispatcher's {@link MarkerCleanup}). Between a claim and its settle the rows are inflight,
 * which is where a kill leaves them. Reports each settle commit to {@code settled}.
 */
final class LedgerDispatcher {

    /** Markers read per round: a few tenants per round, so that settle commits come often. */
    static final int MARKERS_PER_ROUND = 12;

    private final DeliveryLedger ledger;
    private final SplittableRandom random;
    private final IntConsumer settled;
    private final MarkerCleanup cleanup;

    LedgerDispatcher(Queue queue, long seed, IntConsumer settled) {
        this.ledger = DeliveryLedger.of(queue);
        this.random = new SplittableRandom(seed);
        this.settled = settled;
        this.cleanup = new MarkerCleanup(ledger);
    }

    void runForever() {
        while (!Thread.currentThread().isInterrupted()) {
            round();
        }
    }

    /** One claim-then-settle round. */
    void round() {
        long now = System.currentTimeMillis();
        Map<Long, List<Long>> tenants = new LinkedHashMap<>();
        for (ActiveTenant marker : ledger.activeTenants(now, MARKERS_PER_ROUND)) {
            tenants.computeIfAbsent(marker.ord(), o -> new ArrayList<>()).add(marker.bucket());
        }
        List<Settlement> outcomes = new ArrayList<>();
        for (long ord : tenants.keySet()) {
            List<DueRow> due = ledger.dueForTenant(ord, now, 0, 1 + random.nextInt(16), 1 << 20);
            Claim claim = ledger.claim(ord, due);
            for (ClaimedDelivery d : claim.claimed()) {
                int pick = random.nextInt(100);
                if (pick < 60) {
                    outcomes.add(new Settlement.Delivered(d.row()));
                } else if (pick < 85) {
                    outcomes.add(new Settlement.Retry(d, now + random.nextInt(50), "HTTP 503"));
                } else {
                    outcomes.add(new Settlement.Dead(d, "HTTP 410"));
                }
            }
            for (InflightRow orphan : claim.orphans()) {
                outcomes.add(new Settlement.Orphan(orphan));
            }
            cleanup.clean(ord, tenants.get(ord), now);
        }
        if (!outcomes.isEmpty()) {
            ledger.settle(outcomes);
            settled.accept(outcomes.size());
        }
    }
}
