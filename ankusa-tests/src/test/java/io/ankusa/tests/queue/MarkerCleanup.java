package io.ankusa.tests.queue;

import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.DeliveryLedger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One tick's worth of the pipeline's marker cleanup (TEN-1 §5, "delete, then verify") for the queue
 * tests: every active tenant's scanned markers through the dispatcher's own
 * {@link io.ankusa.dispatch.engine.MarkerCleanup}, without the rest of the tick (no claim).
 */
final class MarkerCleanup {

    private MarkerCleanup() {
    }

    /** One tick's cleanup: every active tenant's scanned markers. */
    static void runTick(DeliveryLedger ledger, long now) {
        Map<Long, List<Long>> scanned = new LinkedHashMap<>();
        for (ActiveTenant marker : ledger.activeTenants(now, 4096)) {
            scanned.computeIfAbsent(marker.ord(), o -> new ArrayList<>()).add(marker.bucket());
        }
        io.ankusa.dispatch.engine.MarkerCleanup cleanup = new io.ankusa.dispatch.engine.MarkerCleanup(ledger);
        scanned.forEach((ord, buckets) -> cleanup.clean(ord, buckets, now));
    }
}
