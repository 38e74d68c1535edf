package io.ankusa.queue.events;

import io.ankusa.api.events.QueueListener;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * <p>Listeners come with the hub or are attached later ({@link #attach}); an attached listener
 * hears the events published after it was attached. Thread-safe. {@link #close(Duration)} lets
 * each listener drain for up to the grace period, then stops its thread; events published after
 * close are dropped and counted.
 */
public final class EventHub implements AutoCloseable {

    private final List<ListenerChannel> channels = new CopyOnWriteArrayList<>();
    private final int capacity;
    private final String name;
    private final Object lifecycle = new Object();
    private boolean closed;

    private EventHub(int capacity, String name) {
        this.capacity = capacity;
        this.name = name;
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
        if (capacity < 1) {
            throw new IllegalArgumentException("event capacity must be positive: " + capacity);
        }
        EventHub hub = new EventHub(capacity, Objects.requireNonNull(name, "name"));
        listeners.forEach(hub::attach);
        return hub;
    }

    /**
     * Adds {@code listener}, with a queue and a thread of its own: it hears every event published
     * from now on.
     *
     * @param listener the listener
     * @throws IllegalStateException when the hub is closed
     */
    public void attach(QueueListener listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (lifecycle) {
            if (closed) {
                throw new IllegalStateException("the event hub is closed");
            }
            channels.add(ListenerChannel.start(listener, capacity, name + "-" + (channels.size() + 1)));
        }
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
        synchronized (lifecycle) {
            closed = true;
        }
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
