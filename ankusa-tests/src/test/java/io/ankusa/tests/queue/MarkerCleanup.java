package io.ankusa.tests.queue;

import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pipeline's active-index cleanup (spec §5, "delete, then verify"), written here from the
 * ledger's primitives so the queue tests can drive it; the dispatcher carries the real one.
 */
public final class MarkerCleanup {

    private MarkerCleanup() {
    }

    /** One tick's cleanup: every active tenant's scanned markers. */
    public static void runTick(DeliveryLedger ledger, long now) {
        Map<Long, List<Long>> scanned = new LinkedHashMap<>();
        for (ActiveTenant marker : ledger.activeTenants(now, 4096)) {
            scanned.computeIfAbsent(marker.ord(), o -> new ArrayList<>()).add(marker.bucket());
        }
        scanned.forEach((ord, buckets) -> clean(ledger, ord, buckets, now));
    }

    /** Steps 1–3 for one tenant. */
    public static void clean(DeliveryLedger ledger, long ord, List<Long> scannedBuckets, long now) {
        Optional<DueRow> first = ledger.firstDue(ord);
        long keepFrom = first.map(r -> r.at() / 1000).orElse(now / 1000);
        List<Long> stale = scannedBuckets.stream().filter(b -> b < keepFrom).toList();
        if (stale.isEmpty()) {
            return;
        }
        ledger.deleteMarkers(ord, stale);
        Optional<DueRow> again = ledger.firstDue(ord);
        if (again.isPresent() && stale.contains(again.get().at() / 1000)) {
            ledger.restoreMarker(ord, again.get().at() / 1000);
        }
    }
}
