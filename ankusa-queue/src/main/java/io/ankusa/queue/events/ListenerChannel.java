package io.ankusa.queue.events;

import io.ankusa.api.events.QueueListener;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One listener's bounded queue and the daemon thread that calls it. */
final class ListenerChannel {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerChannel.class);

    /** Ends the thread once everything before it is delivered. */
    private static final Consumer<QueueListener> STOP = listener -> {
    };

    private final QueueListener listener;
    private final BlockingQueue<Consumer<QueueListener>> queue;
    private final Thread thread;
    private final AtomicLong dropped = new AtomicLong();
    /** Drops the listener has not been told of yet. */
    private final AtomicLong unreported = new AtomicLong();
    private final AtomicLong offered = new AtomicLong();
    private final Object progress = new Object();
    /** Events the listener has been called with; guarded by {@link #progress}. */
    private long taken;
    private volatile boolean closed;

    private ListenerChannel(QueueListener listener, int capacity, String name) {
        this.listener = listener;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    static ListenerChannel start(QueueListener listener, int capacity, String name) {
        ListenerChannel channel = new ListenerChannel(listener, capacity, name);
        channel.thread.start();
        return channel;
    }

    void offer(Consumer<QueueListener> event) {
        if (!closed && queue.offer(event)) {
            offered.incrementAndGet();
        } else {
            dropped.incrementAndGet();
            unreported.incrementAndGet();
        }
    }

    long dropped() {
        return dropped.get();
    }

    private void run() {
        try {
            while (true) {
                Consumer<QueueListener> event = queue.take();
                if (event == STOP) {
                    return;
                }
                long lost = unreported.getAndSet(0);
                if (lost > 0) {
                    call(l -> l.onEventsDropped(lost));
                }
                call(event);
                synchronized (progress) {
                    taken++;
                    progress.notifyAll();
                }
            }
        } catch (InterruptedException e) {
            // close() gave up waiting: the rest is dropped with the thread
        }
    }

    private void call(Consumer<QueueListener> event) {
        try {
            event.accept(listener);
        } catch (RuntimeException e) {
            LOG.warn("event listener {} failed; it keeps receiving events", listener, e);
        }
    }

    boolean awaitDelivered(long nanos) throws InterruptedException {
        long target = offered.get();
        long deadline = System.nanoTime() + nanos;
        synchronized (progress) {
            while (taken < target) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !thread.isAlive()) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(progress, left);
            }
        }
        return true;
    }

    void close(long graceNanos) {
        closed = true;
        try {
            if (!queue.offer(STOP, graceNanos, TimeUnit.NANOSECONDS)) {
                thread.interrupt();
            }
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(graceNanos)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            thread.interrupt();
        }
        // What a listener that did not drain in time still held is dropped with its thread: count it.
        long left = queue.stream().filter(e -> e != STOP).count();
        queue.clear();
        dropped.addAndGet(left);
    }
}
