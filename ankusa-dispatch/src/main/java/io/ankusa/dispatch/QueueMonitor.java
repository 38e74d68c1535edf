package io.ankusa.dispatch;

import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.DeliveryLedger;
import java.util.Objects;

/**
 * Reads a queue's {@link Gauges} without a {@link Pipeline}: for a read-only monitor, an
 * operator's process or a metrics bridge on a node whose pipeline runs elsewhere. Same reader as
 * {@link Pipeline#gauges()}, so the same costs (no family is folded); only
 * {@link Gauges#dispatchActiveTenants()} is 0, as there is no dispatch tick to report.
 *
 * <p>Thread-safe; holds nothing but the queue, which it never closes.
 */
public final class QueueMonitor {

    private final GaugeReader reader;

    private QueueMonitor(Queue queue) {
        DeliveryLedger ledger = DeliveryLedger.of(queue);
        this.reader = new GaugeReader(queue, ledger, ledger.clock(), () -> 0);
    }

    /**
     * A monitor of {@code queue}, measuring "now" with the queue's own clock.
     *
     * @param queue an open queue
     * @return the monitor
     */
    public static QueueMonitor of(Queue queue) {
        return new QueueMonitor(Objects.requireNonNull(queue, "queue"));
    }

    /** Measures the gauges now, on the calling thread. */
    public Gauges gauges() {
        return reader.measure();
    }
}
