package io.ankusa.queue.events;

import io.ankusa.api.events.QueueListener;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listener's bounded queue and the daemon thread that calls it. The thread never blocks on the
 * queue: when it finds it empty it parks for 1 ms, doubling up to 10 ms while nothing comes. So a
 * publishing thread's {@code offer} never has a waiting consumer to wake (no futex call on the
 * writer, tick or settler thread per event); the price is up to 10 ms of delay after a quiet spell
 * and about 100 wake-ups a second per idle listener. While events flow the thread wakes at most
 * about 1 000 times a second and calls the listener with everything that came meanwhile, so its
 * wake-ups cost less per event the busier the queue is.
 *
 * <p>The queue is a lock-free linked queue bounded by a count of the events it holds: an
 * {@code offer} is three atomic updates (the count, the queue, the tally) and never takes a lock the listener thread
 * may hold, and the listener's progress is announced with a lock only while someone waits for it. An event taken
 * for the listener leaves the count before the listener is called, so a listener blocked in a call
 * holds that event and at most {@code capacity} more.
 */
final class ListenerChannel {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerChannel.class);

    private static final long MIN_IDLE_NANOS = 1_000_000;
    private static final long MAX_IDLE_NANOS = 10_000_000;

    /** Ends the thread once everything before it is delivered. */
    private static final Consumer<QueueListener> STOP = listener -> {
    };

    private final QueueListener listener;
    private final Queue<Consumer<QueueListener>> queue = new ConcurrentLinkedQueue<>();
    private final int capacity;
    /** Events in {@link #queue}, STOP excluded; at most {@link #capacity}. */
    private final AtomicInteger held = new AtomicInteger();
    private final Thread thread;
    private final AtomicLong dropped = new AtomicLong();
    /** Drops the listener has not been told of yet. */
    private final AtomicLong unreported = new AtomicLong();
    private final AtomicLong offered = new AtomicLong();
    private final Object progress = new Object();
    /** Events the listener has been called with. */
    private final AtomicLong taken = new AtomicLong();
    /** Threads in {@link #awaitDelivered}; the listener thread notifies {@link #progress} only then. */
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile boolean closed;

    private ListenerChannel(QueueListener listener, int capacity, String name) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.listener = listener;
        this.capacity = capacity;
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    static ListenerChannel start(QueueListener listener, int capacity, String name) {
        ListenerChannel channel = new ListenerChannel(listener, capacity, name);
        channel.thread.start();
        return channel;
    }

    void offer(Consumer<QueueListener> event) {
        if (closed) {
            drop();
        } else if (held.incrementAndGet() > capacity) {
            held.decrementAndGet();
            drop();
        } else {
            queue.add(event);
            offered.incrementAndGet();
        }
    }

    private void drop() {
        dropped.incrementAndGet();
        unreported.incrementAndGet();
    }

    long dropped() {
        return dropped.get();
    }

    private void run() {
        long idle = MIN_IDLE_NANOS;
        while (true) {
            Consumer<QueueListener> event = queue.poll();
            if (event == null) {
                LockSupport.parkNanos(this, idle);
                if (Thread.interrupted()) {
                    return; // close() gave up waiting: the rest is dropped with the thread
                }
                idle = Math.min(idle * 2, MAX_IDLE_NANOS);
                continue;
            }
            idle = MIN_IDLE_NANOS;
            if (event == STOP) {
                return;
            }
            held.decrementAndGet();
            if (unreported.get() > 0) {
                long lost = unreported.getAndSet(0);
                call(l -> l.onEventsDropped(lost));
            }
            call(event);
            taken.incrementAndGet();
            // A waiter registers before it reads taken, so one that registered too late for this
            // check reads the new count.
            if (waiting.get() > 0) {
                synchronized (progress) {
                    progress.notifyAll();
                }
            }
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
        waiting.incrementAndGet();
        try {
            synchronized (progress) {
                while (taken.get() < target) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0 || !thread.isAlive()) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(progress, left);
                }
            }
            return true;
        } finally {
            waiting.decrementAndGet();
        }
    }

    void close(long graceNanos) {
        closed = true;
        try {
            queue.add(STOP);
            LockSupport.unpark(thread);
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
