package io.ankusa.queue.ledger;

import io.ankusa.api.EndpointSettings;
import io.ankusa.queue.admission.PolicyCache;

/** Implemented by the queue: where {@link DeliveryLedger#of} finds the ledger. Not for other implementations. */
public interface LedgerSource {

    /** The queue's ledger. */
    DeliveryLedger deliveryLedger();

    /** The queue's cached tenant policies, which the scheduler's admission reads. */
    PolicyCache tenantPolicies();

    /** The queue's endpoint states, which the admission step reads and the settler writes. */
    EndpointLedger endpointLedger();

    /** The queue's endpoint settings ({@code endpoint.*}). */
    EndpointSettings endpointSettings();

    /** The queue's failure latch: the settler records its death here. */
    QueueFault queueFault();
}
