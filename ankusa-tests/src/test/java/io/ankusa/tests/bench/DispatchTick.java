package io.ankusa.tests.bench;

import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reads of one dispatch tick (spec §5): {@link DeliveryLedger#activeTenants} (up to 4 096
 * markers), then {@link DeliveryLedger#dueForTenant} for each distinct tenant, from that tenant's
 * scan cursor as the pipeline keeps it in memory (the {@code at} of the first due row it saw last
 * time; rows before it were claimed, and their tombstones are not scanned again). Claims nothing.
 */
final class DispatchTick {

    static final int MARKER_LIMIT = 4_096;

    private final DeliveryLedger ledger;
    private final int rowLimit;
    private final long byteBudget;
    private final Map<Long, Long> cursors = new HashMap<>();
    private int lastVisited;

    DispatchTick(DeliveryLedger ledger, int rowLimit, long byteBudget) {
        this.ledger = ledger;
        this.rowLimit = rowLimit;
        this.byteBudget = byteBudget;
    }

    /** One tick at {@code now}; returns the rows read. */
    long run(long now) {
        Set<Long> tenants = new LinkedHashSet<>();
        for (ActiveTenant marker : ledger.activeTenants(now, MARKER_LIMIT)) {
            tenants.add(marker.ord());
        }
        long rows = 0;
        for (long ord : tenants) {
            List<DueRow> due = ledger.dueForTenant(ord, now, cursors.getOrDefault(ord, 0L), rowLimit, byteBudget);
            if (due.isEmpty()) {
                cursors.remove(ord);
            } else {
                cursors.put(ord, due.get(0).at());
            }
            rows += due.size();
        }
        lastVisited = tenants.size();
        return rows;
    }

    /** Distinct tenants the last tick visited. */
    int lastVisited() {
        return lastVisited;
    }
}
