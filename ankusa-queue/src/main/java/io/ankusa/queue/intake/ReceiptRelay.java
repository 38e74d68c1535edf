package io.ankusa.queue.intake;

import io.ankusa.api.Receipt;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Moves the completion of ingest futures off the writer thread: the writer completes its own
 * future, and the caller's future is completed on the completion executor. A caller's callback
 * that blocks therefore holds one executor thread, never the writer (which serves every tenant)
 * nor another caller's receipt.
 *
 * <p>The default executor is the queue's own: a pool of daemon threads that grows on demand and
 * lets threads idle for 60 s go. Not {@code ForkJoinPool.commonPool()}: on a two-core machine its
 * parallelism is 1, so one blocking callback would stall every other receipt behind it, and it is
 * shared with the rest of the application. On its own pool the relay does not hand each hook to a
 * thread of its own (a thread hand-off per hook cost the sync thread more than the fsync):
 * completions wait in one queue that a few <em>drainers</em> (pool tasks) empty, and a drainer
 * that is about to run a caller's callback while completions still wait makes sure another
 * drainer is free to take them first. So a callback that blocks still holds only its own thread:
 * the others' receipts are completed by the next drainer. On an application's executor each hook
 * is one task, as that executor's owner expects. A future that is already done when ingest
 * returns (a refusal at submit) is returned as it is: its callbacks run on the caller's own thread.
 */
public final class ReceiptRelay implements AutoCloseable {

    private final Executor executor;
    private final ExecutorService owned;
    /** Completions waiting for a drainer (own pool only). */
    private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();
    /** Drainers started and not inside a caller's callback (own pool only). */
    private final AtomicInteger free = new AtomicInteger();

    private ReceiptRelay(Executor executor, ExecutorService owned) {
        this.executor = executor;
        this.owned = owned;
    }

    /**
     * A relay on {@code supplied}, or on a pool of its own when empty.
     *
     * @param supplied the application's executor, if any
     * @return the relay
     */
    public static ReceiptRelay on(Optional<Executor> supplied) {
        if (supplied.isPresent()) {
            return new ReceiptRelay(supplied.get(), null);
        }
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), task -> {
                    Thread t = new Thread(task, "ankusa-ingest-completion-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        return new ReceiptRelay(pool, pool);
    }

    /**
     * The caller's future for {@code fromWriter}: completed, with the same result, on the
     * completion executor.
     *
     * @param fromWriter the future the writer completes
     * @return the future to hand to the caller
     */
    public CompletableFuture<Receipt> relay(CompletableFuture<Receipt> fromWriter) {
        Objects.requireNonNull(fromWriter, "fromWriter");
        if (fromWriter.isDone()) {
            return fromWriter;
        }
        CompletableFuture<Receipt> toCaller = new CompletableFuture<>();
        fromWriter.whenComplete((receipt, failure) -> {
            Runnable completion = () -> settle(toCaller, receipt, failure);
            if (owned == null) {
                try {
                    executor.execute(completion);
                } catch (RejectedExecutionException rejected) {
                    // The executor is shut down (the queue is closing): complete here rather than never.
                    completion.run();
                }
            } else {
                waiting.add(completion);
                if (free.get() == 0) {
                    startDrainer();
                }
            }
        });
        return toCaller;
    }

    /** Starts one more drainer on the own pool; counted free from now. */
    private void startDrainer() {
        free.incrementAndGet();
        try {
            owned.execute(this::drain);
        } catch (RejectedExecutionException rejected) {
            // The pool is shut down (the queue is closing): complete what waits here rather than never.
            free.decrementAndGet();
            Runnable completion;
            while ((completion = waiting.poll()) != null) {
                completion.run();
            }
        }
    }

    /**
     * Completes waiting futures until none waits. Before a callback runs, if this was the last
     * free drainer and completions still wait, another drainer starts, so a blocking callback
     * never holds another caller's receipt.
     */
    private void drain() {
        while (true) {
            Runnable completion = waiting.poll();
            if (completion == null) {
                free.decrementAndGet();
                // A completion added after the poll whose adder saw this drainer still free: take it.
                if (waiting.isEmpty()) {
                    return;
                }
                free.incrementAndGet();
                continue;
            }
            if (free.decrementAndGet() == 0 && !waiting.isEmpty()) {
                startDrainer();
            }
            try {
                completion.run();
            } finally {
                free.incrementAndGet();
            }
        }
    }

    private static void settle(CompletableFuture<Receipt> future, Receipt receipt, Throwable failure) {
        if (failure != null) {
            future.completeExceptionally(failure);
        } else {
            future.complete(receipt);
        }
    }

    /**
     * Completes, on the closing thread, every completion still waiting for a drainer, then waits
     * up to {@value #CLOSE_WAIT_MILLIS} ms for the drainers to finish the ones they hold, and lets
     * the own pool's threads end (a supplied executor is the application's). The queue closes its
     * writer first, so once this returns every accepted hook's future is complete: a drainer
     * completes a future before it runs that future's callbacks, so only a drainer between taking
     * a completion and completing it is waited for, and a callback that blocks on a drainer holds
     * this for at most the bound. The callbacks of the completions completed here run on the
     * closing thread.
     */
    @Override
    public void close() {
        if (owned != null) {
            owned.shutdown();
            Runnable completion;
            while ((completion = waiting.poll()) != null) {
                completion.run();
            }
            try {
                owned.awaitTermination(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How long {@link #close()} waits for drainers to finish the completions they hold. */
    static final long CLOSE_WAIT_MILLIS = 1_000;
}
