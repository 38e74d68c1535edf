package io.ankusa.bench;

import io.ankusa.queue.ledger.ActiveTenant;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads of one dispatch tick (TEN-1 §5), as the pipeline's tick makes them before it claims:
 * {@link DeliveryLedger#activeTenants} (up to {@value #MARKER_LIMIT} markers, oldest first), then
 * for each distinct tenant {@link DeliveryLedger#dueForTenant} from the start of the earliest marker
 * second scanned for it (the pipeline's scan floor on a first visit: every due row has a marker of
 * its own second, so none lies before), up to {@value #ROWS_PER_TENANT} rows and 2 MiB each — the
 * pipeline's default tick budget (1 024 rows, 16 MiB) shared by the bench's 8 active tenants, so
 * that every one of them is read, as the spec's tick ("due_for_tenant for each") has it. Claims
 * nothing.
 */
final class DispatchTick {

    static final int MARKER_LIMIT = 4_096;
    static final int ROWS_PER_TENANT = 128;
    static final long BYTES_PER_TENANT = 2L << 20;

    private final DeliveryLedger ledger;
    private int lastVisited;

    DispatchTick(DeliveryLedger ledger) {
        this.ledger = ledger;
    }

    /** One tick at {@code now}; returns the rows read. */
    long run(long now) {
        Map<Long, Long> earliestBucket = new LinkedHashMap<>();
        for (ActiveTenant marker : ledger.activeTenants(now, MARKER_LIMIT)) {
            earliestBucket.putIfAbsent(marker.ord(), marker.bucket());
        }
        long rows = 0;
        for (Map.Entry<Long, Long> tenant : earliestBucket.entrySet()) {
            List<DueRow> due = ledger.dueForTenant(tenant.getKey(), now, tenant.getValue() * 1000, ROWS_PER_TENANT,
                    BYTES_PER_TENANT);
            rows += due.size();
        }
        lastVisited = earliestBucket.size();
        return rows;
    }

    /** Distinct tenants the last tick visited. */
    int lastVisited() {
        return lastVisited;
    }
}
