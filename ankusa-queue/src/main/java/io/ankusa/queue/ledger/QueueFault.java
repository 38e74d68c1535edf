package io.ankusa.queue.ledger;

import io.ankusa.api.QueueFailedException;
import io.ankusa.api.QueueHealth;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue's failure latch: the first long-lived thread (ingest writer, settler, housekeeping)
 * that dies of any {@link Throwable} records itself here, and from then on every call of the queue
 * fails with {@link QueueFailedException} naming it. Set once, never cleared: the queue must be
 * reopened.
 */
public final class QueueFault {

    private static final Logger LOG = LoggerFactory.getLogger(QueueFault.class);

    private record Death(String component, Throwable cause) {
    }

    private final AtomicReference<Death> death = new AtomicReference<>();


    /**
     * Records that {@code component} died of {@code cause} (the first death wins); returns the failure calls now get.
     */
    public QueueFailedException fail(String component, Throwable cause) {
        if (death.compareAndSet(null, new Death(component, cause))) {
            LOG.error("the queue failed: its {} died; every call fails until the queue is reopened", component, cause);
        }
        return failure();
    }

    /** A fresh failure naming the recorded death, or null while the queue runs. */
    public QueueFailedException failure() {
        Death d = death.get();
        return d == null ? null : new QueueFailedException(d.component(), d.cause());
    }

    /** Throws the recorded failure, if any. */
    public void check() {
        QueueFailedException f = failure();
        if (f != null) {
            throw f;
        }
    }

    /** Running or failed (closing is the owner's to say). */
    public QueueHealth health() {
        Death d = death.get();
        return d == null ? QueueHealth.RUNNING : QueueHealth.failed(d.component(), d.cause());
    }
}
