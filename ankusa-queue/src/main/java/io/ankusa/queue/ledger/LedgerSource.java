package io.ankusa.queue.ledger;

/** Implemented by the queue: where {@link DeliveryLedger#of} finds the ledger. Not for other implementations. */
public interface LedgerSource {

    /** The queue's ledger. */
    DeliveryLedger deliveryLedger();
}
