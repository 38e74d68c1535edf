package io.ankusa.queue.ledger;

import io.ankusa.api.EndpointSettings;
import io.ankusa.queue.admission.PolicyCache;
import io.opentelemetry.api.OpenTelemetry;

/**
 * The one port through which the dispatcher, the CLI and the Kafka node reach a queue's ledger:
 * {@link #of(AutoCloseable)} finds it behind an open {@code Queue}, and its accessors hand out the
 * parts. Implemented by the queue only; not for other implementations.
 */
public interface LedgerSource {

    /**
     * The ledger port of an open queue.
     *
     * @param queue a queue opened by {@code Queue.open}
     * @return its port
     * @throws IllegalArgumentException when {@code queue} is not an Ankusa queue
     */
    static LedgerSource of(AutoCloseable queue) {
        if (queue instanceof LedgerSource source) {
            return source;
        }
        throw new IllegalArgumentException("not an Ankusa queue: " + queue.getClass().getName());
    }

    /** The queue's ledger. */
    DeliveryLedger deliveryLedger();

    /** The queue's cached tenant policies, which the scheduler's admission reads. */
    PolicyCache tenantPolicies();

    /** The queue's endpoint states, which the admission step reads and the settler writes. */
    EndpointLedger endpointLedger();

    /** The queue's endpoint settings ({@code endpoint.*}). */
    EndpointSettings endpointSettings();

    /** The in-flight limits of the queue's registered endpoints, which the admission step applies. */
    EndpointLimits endpointLimits();

    /** The queue's failure latch: the settler records its death here. */
    QueueFault queueFault();

    /** The queue's tenant ordinals and names. */
    TenantDirectory tenantDirectory();

    /** The queue's audit trail, for actions taken outside the queue (replay). */
    AuditRecorder auditRecorder();

    /** What the queue traces ingest with (the one given to {@code Queue.open}): the pipeline's default. */
    OpenTelemetry openTelemetry();
}
