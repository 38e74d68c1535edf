package io.ankusa.queue.ledger;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A tenant's due rows as {@link DeliveryLedger#dueForTenant} reads them, and the stored due row
 * that comes right after them in key order (whatever its due time), read by the same seek: what
 * a marker cleanup needs to know the tenant's first row once the rows are claimed.
 *
 * @param rows the due rows read
 * @param next the due row after them in key order, or empty when the tenant had none
 */
public record DueRead(List<DueRow> rows, Optional<DueRow> next) {

    /** Copies the rows. */
    public DueRead {
        rows = List.copyOf(rows);
        Objects.requireNonNull(next, "next");
    }
}
