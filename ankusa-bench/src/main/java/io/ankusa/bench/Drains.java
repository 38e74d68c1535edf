package io.ankusa.bench;

import io.ankusa.queue.Queue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** How a drain bench knows its backlog is delivered and settled, without taking CPU from the drain. */
public final class Drains {

    private Drains() {
    }

    /**
     * Returns once the node's {@code bytes} counter is 0: every row delivered and settled. Until
     * the sink has had {@code hooks} calls it watches that count alone: reading the counter is a
     * store read, and polling it every millisecond costs 5–9 % of 2 cores' CPU during a drain of
     * 0.3–0.6 s on RocksDB ({@code DrainProfile}'s figures).
     *
     * @param queue the queue being drained
     * @param calls the sink's calls so far
     * @param hooks the backlog's deliveries
     */
    public static void await(Queue queue, AtomicLong calls, long hooks) {
        while (calls.get() < hooks) {
            LockSupport.parkNanos(1_000_000);
        }
        while (queue.stats().bytes() != 0) {
            LockSupport.parkNanos(1_000_000);
        }
    }
}
