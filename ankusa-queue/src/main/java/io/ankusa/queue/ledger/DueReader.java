package io.ankusa.queue.ledger;

import java.util.List;
import java.util.Optional;

/**
 * Many due reads in a row, through one store reader: a dispatch tick reads the due rows of every
 * tenant it visits, and then checks its marker cleanup, through one of these each, instead of a
 * new store scan (a new iterator, a new read transaction) per tenant. The reads are those of
 * {@link DeliveryLedger} of the same names. Every read sees every commit that returned before the
 * reader was opened; it may not see later ones (the store's backends read one view for the
 * reader's life). Open it after what its reads must see, and close it before committing (on LMDB
 * it holds a read transaction).
 *
 * <p>One thread at a time.
 */
public interface DueReader extends AutoCloseable {

    /**
     * {@link DeliveryLedger#dueForTenant}.
     *
     * @param ord        the tenant
     * @param now        epoch milliseconds: rows due up to then are returned
     * @param floorAt    the scan starts at this due time
     * @param limit      at most this many rows
     * @param byteBudget rows until this many bytes (the first row is returned even if larger)
     * @return the rows, in key order
     */
    List<DueRow> dueForTenant(long ord, long now, long floorAt, int limit, long byteBudget);

    /**
     * {@link DeliveryLedger#dueForTenantAfter}.
     *
     * @param ord        the tenant
     * @param now        epoch milliseconds: rows due up to then are returned
     * @param after      the rows after this one (exclusive)
     * @param limit      at most this many rows
     * @param byteBudget rows until this many bytes (the first row is returned even if larger)
     * @return the rows, in key order
     */
    List<DueRow> dueForTenantAfter(long ord, long now, DueRow after, int limit, long byteBudget);

    /**
     * {@link DeliveryLedger#dueForTenantAhead}.
     *
     * @param ord        the tenant
     * @param now        epoch milliseconds: rows due up to then are returned
     * @param floorAt    the scan starts at this due time
     * @param limit      at most this many rows
     * @param byteBudget rows until this many bytes (the first row is returned even if larger)
     * @return the rows and the row after them
     */
    DueRead dueForTenantAhead(long ord, long now, long floorAt, int limit, long byteBudget);

    /**
     * {@link DeliveryLedger#firstDue(long, long)}.
     *
     * @param ord    the tenant
     * @param fromAt the seek starts at this due time
     * @return the tenant's earliest due row at or after {@code fromAt}
     */
    default Optional<DueRow> firstDue(long ord, long fromAt) {
        List<DueRow> rows = dueForTenant(ord, Long.MAX_VALUE, fromAt, 1, Long.MAX_VALUE);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /** Releases the store reader; idempotent. */
    @Override
    void close();

    /**
     * A reader that makes each read through {@code ledger}'s own method (a store scan each).
     *
     * @param ledger the ledger to read
     * @return the reader
     */
    static DueReader each(DeliveryLedger ledger) {
        return new DueReader() {
            @Override
            public List<DueRow> dueForTenant(long ord, long now, long floorAt, int limit, long byteBudget) {
                return ledger.dueForTenant(ord, now, floorAt, limit, byteBudget);
            }

            @Override
            public List<DueRow> dueForTenantAfter(long ord, long now, DueRow after, int limit, long byteBudget) {
                return ledger.dueForTenantAfter(ord, now, after, limit, byteBudget);
            }

            @Override
            public DueRead dueForTenantAhead(long ord, long now, long floorAt, int limit, long byteBudget) {
                return ledger.dueForTenantAhead(ord, now, floorAt, limit, byteBudget);
            }

            @Override
            public Optional<DueRow> firstDue(long ord, long fromAt) {
                return ledger.firstDue(ord, fromAt);
            }

            @Override
            public void close() {
            }
        };
    }
}
