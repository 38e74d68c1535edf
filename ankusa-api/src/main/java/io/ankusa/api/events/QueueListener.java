package io.ankusa.api.events;

/**
 * Receives what the queue and its pipeline decided, one method per kind of event, in the spirit of
 * Caffeine's {@code StatsCounter}: every method has an empty default, so a listener overrides only
 * what it needs.
 *
 * <p><b>Threads and back-pressure.</b> Events are never delivered on the ingest writer, the tick or
 * the settler thread. Each registered listener has a bounded hand-off of its own (capacity
 * {@code events.capacity}, default 8 192) drained by one daemon thread of its own
 * ({@code ankusa-events-N}), so a listener sees events in the order they were published and is
 * called by one thread at a time. A listener that is slow, blocks or throws never slows ingest or
 * delivery, nor another listener: when its hand-off is full, new events for it are dropped and
 * counted. The count is readable ({@code Queue.eventsDropped()}, {@code Pipeline.eventsDropped()})
 * and is reported to the listener itself through {@link #onEventsDropped(long)} once it catches up.
 * A listener that throws is logged at WARN and keeps receiving events.
 *
 * <p><b>Where to register.</b> A listener on {@code QueueConfig} receives the queue's events
 * ({@link #onIngestCommitted}); a listener on {@code Pipeline.builder} receives the pipeline's
 * (every other kind, {@link #onQuarantined} among them: a delivery is quarantined by the claim of
 * the pipeline that found its record undecodable). Register one object on both to see everything; it is not called
 * twice for one event. Events are an observation channel, not a ledger: the counters in the store are the
 * truth, and events published just before a close may be dropped if the listener does not drain
 * within the close's grace period.
 */
public interface QueueListener {

    /**
     * An ingest batch was processed by the writer: its accepted hooks are durable (or, when
     * {@link IngestCommitted#failed()} is not 0, its commit failed).
     *
     * @param event what the batch held
     */
    default void onIngestCommitted(IngestCommitted event) {
    }

    /**
     * A sink attempt ended (before its outcome is committed).
     *
     * @param event the attempt
     */
    default void onAttemptFinished(AttemptFinished event) {
    }

    /**
     * The retry policy scheduled another attempt, and it is committed.
     *
     * @param event the retry
     */
    default void onRetryScheduled(RetryScheduled event) {
    }

    /**
     * A delivery moved to the dead letters, committed.
     *
     * @param event the dead letter
     */
    default void onDeadLettered(DeadLettered event) {
    }

    /**
     * A claimed row was settled (delivered, retried, dead-lettered or dropped), committed.
     *
     * @param event the settlement
     */
    default void onSettled(DeliverySettled event) {
    }

    /**
     * An endpoint's observed state changed.
     *
     * @param event the change
     */
    default void onEndpointStateChanged(EndpointStateChanged event) {
    }

    /**
     * A dispatch tick handed its claimed rows to the sinks.
     *
     * @param event the tick
     */
    default void onTick(TickFinished event) {
    }

    /**
     * A stored record that does not decode was moved aside.
     *
     * @param event the record
     */
    default void onQuarantined(Quarantined event) {
    }

    /**
     * Events for this listener were dropped because its hand-off was full; called on the
     * listener's thread once it has room again, before the next event it gets.
     *
     * @param count events dropped since the last call
     */
    default void onEventsDropped(long count) {
    }
}
