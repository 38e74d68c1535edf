package io.ankusa.queue.events;

import io.ankusa.api.events.QueueListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Publishes events to listeners without ever waiting for them.
 *
 * <p>What it guarantees, and why: {@link #publish} costs the publishing thread (the ingest writer,
 * the tick, the settler) one non-blocking {@code offer} per listener, never a call into listener
 * code, because each listener has its own bounded queue drained by its own daemon thread. A full
 * queue drops the event for that listener only and counts it ({@link #dropped()}); the listener
 * hears of it through {@link QueueListener#onEventsDropped} before its next event. With no
 * listener, {@link #active()} is false and callers build no event at all.
 *
 * <p>Thread-safe. {@link #close(Duration)} lets each listener drain for up to the grace period,
 * then stops its thread; events published after close are dropped and counted.
 */
public final class EventHub implements AutoCloseable {

    /** The hub of no listener: publishes nothing. */
    private static final EventHub NONE = new EventHub(List.of());

    private final List<ListenerChannel> channels;

    private EventHub(List<ListenerChannel> channels) {
        this.channels = channels;
    }

    /**
     * A hub over {@code listeners}, each with a queue of {@code capacity} events and a thread
     * named {@code name-N}; started.
     *
     * @param listeners the listeners (may be empty)
     * @param capacity  most events waiting per listener
     * @param name      thread name prefix
     * @return the hub
     */
    public static EventHub start(List<QueueListener> listeners, int capacity, String name) {
        if (listeners.isEmpty()) {
            return NONE;
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("event capacity must be positive: " + capacity);
        }
        List<ListenerChannel> channels = new ArrayList<>(listeners.size());
        for (QueueListener listener : listeners) {
            channels.add(ListenerChannel.start(Objects.requireNonNull(listener, "listener"), capacity,
                    name + "-" + (channels.size() + 1)));
        }
        return new EventHub(List.copyOf(channels));
    }

    /** {@return whether anyone listens: callers skip building events when not} */
    public boolean active() {
        return !channels.isEmpty();
    }

    /**
     * Hands {@code event} (a call of one listener method) to every listener, without waiting.
     *
     * @param event the call to make on each listener's thread
     */
    public void publish(Consumer<QueueListener> event) {
        for (ListenerChannel channel : channels) {
            channel.offer(event);
        }
    }

    /** {@return events dropped so far, over all listeners} */
    public long dropped() {
        long sum = 0;
        for (ListenerChannel channel : channels) {
            sum += channel.dropped();
        }
        return sum;
    }

    /**
     * Waits up to {@code timeout} for every listener to have taken every event published before
     * this call; for tests and for an orderly close.
     *
     * @param timeout how long to wait
     * @return whether every listener caught up
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean awaitDelivered(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ListenerChannel channel : channels) {
            if (!channel.awaitDelivered(Math.max(0, deadline - System.nanoTime()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Lets the listeners drain for up to {@code grace}, then stops their threads.
     *
     * @param grace how long to let them drain
     */
    public void close(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        for (ListenerChannel channel : channels) {
            channel.close(Math.max(0, deadline - System.nanoTime()));
        }
    }

    /** Closes with a one-second grace period. */
    @Override
    public void close() {
        close(Duration.ofSeconds(1));
    }
}
