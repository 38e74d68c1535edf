package io.ankusa.dispatch;

import io.ankusa.api.events.AttemptFinished;
import io.ankusa.api.events.DeadLettered;
import io.ankusa.api.events.DeliverySettled;
import io.ankusa.api.events.EndpointStateChanged;
import io.ankusa.api.events.IngestCommitted;
import io.ankusa.api.events.Quarantined;
import io.ankusa.api.events.QueueListener;
import io.ankusa.api.events.RetryScheduled;
import io.ankusa.api.events.TickFinished;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Keeps every event it gets, in order; tests wait for the ones they expect. */
final class RecordingListener implements QueueListener {

    private final List<Object> events = new ArrayList<>();
    private long droppedReported;

    private synchronized void add(Object event) {
        events.add(event);
        notifyAll();
    }

    @Override
    public void onIngestCommitted(IngestCommitted event) {
        add(event);
    }

    @Override
    public void onAttemptFinished(AttemptFinished event) {
        add(event);
    }

    @Override
    public void onRetryScheduled(RetryScheduled event) {
        add(event);
    }

    @Override
    public void onDeadLettered(DeadLettered event) {
        add(event);
    }

    @Override
    public void onSettled(DeliverySettled event) {
        add(event);
    }

    @Override
    public void onEndpointStateChanged(EndpointStateChanged event) {
        add(event);
    }

    @Override
    public void onTick(TickFinished event) {
        add(event);
    }

    @Override
    public void onQuarantined(Quarantined event) {
        add(event);
    }

    @Override
    public synchronized void onEventsDropped(long count) {
        droppedReported += count;
        notifyAll();
    }

    synchronized long droppedReported() {
        return droppedReported;
    }

    /** Every event of {@code type} so far. */
    synchronized <T> List<T> all(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** Waits (up to 30 s) until at least {@code n} events of {@code type} arrived; returns them all. */
    synchronized <T> List<T> await(Class<T> type, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (all(type).size() < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("expected " + n + " " + type.getSimpleName() + " events, got " + all(type));
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return all(type);
    }
}
