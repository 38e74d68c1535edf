package io.ankusa.queue.ledger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;

/**
 * A group-commit stage: one thread that takes a request, drains every request waiting behind it,
 * and hands the group to its {@link Stage} to commit (or sync) once and complete or fail every
 * request of it. The slower the commit, the larger the next group, with no fixed size: the
 * requests that arrive while one group commits are the next group. The ingest committer, the
 * ingest sync and the settle sync are each one of these.
 *
 * <p>What it guarantees, and why:
 * <ul>
 * <li><b>Every request taken goes to exactly one group.</b> A request handed to the queue is
 *     either taken into a group, which goes to {@link Stage#commit} once, or still waiting when
 *     the thread ends. The stage completes or fails every request of a group it is given; the
 *     requests still waiting when the thread ends are the stage's to fail ({@link Stage#died},
 *     {@link Stage#ended}), and so are those handed over after it ended: its hand-off checks
 *     {@link #isAlive()} or a flag it sets in {@code ended}.</li>
 * <li><b>A failed commit fails its whole group.</b> The stage commits a group as one unit, so a
 *     commit that fails fails every request of the group; a commit that throws ends the thread,
 *     and {@link Stage#died} gets the group and the cause, to fail the requests of it the stage
 *     has not completed yet, and those still waiting.</li>
 * <li><b>Order.</b> Groups are taken and committed in the order their requests were handed to the
 *     queue, one at a time, and a group holds its requests in that order: a stage that completes
 *     a group's requests in list order completes them in hand-over order.</li>
 * <li><b>Stopping drains.</b> The owner stops the thread by handing over the stop marker after
 *     its last request: the group the marker is taken with is committed without it, and the thread
 *     ends. Nothing the owner handed over before the marker is left uncommitted.</li>
 * <li><b>Its thread.</b> A daemon thread of the name given, started by {@link #start()}; the
 *     stage's methods run on it and nowhere else. Interrupted while waiting for a request, it
 *     restores its interrupt status and ends through {@link Stage#died} with the
 *     {@link InterruptedException} and an empty group.</li>
 * </ul>
 *
 * @param <T> the request type
 */
public final class GroupCommit<T> {

    /**
     * What a group-commit thread does with its groups; every method runs on that thread.
     *
     * @param <T> the request type
     */
    public interface Stage<T> {

        /**
         * Commits (or syncs) {@code group} once, then completes or fails every request of it.
         *
         * @param group the requests taken together, in hand-over order; never empty, never holds the stop
         *     marker
         */
        void commit(List<T> group);

        /**
         * The thread ends because {@code cause} was thrown: fails the requests of {@code group} not yet
         * completed, and those still waiting.
         *
         * @param group the group whose commit threw; empty when the thread was interrupted while it
         *     waited for a request
         * @param cause what was thrown: an {@link InterruptedException}, or what the commit threw
         */
        void died(List<T> group, Throwable cause);

        /** Called last on the thread, however it ended (stopped or died); does nothing by default. */
        default void ended() {
        }
    }

    private final BlockingQueue<T> waiting;
    private final T stop;
    private final Stage<T> stage;
    private final Thread thread;

    /**
     * A stage taking its requests from {@code waiting}; {@link #start()} starts its thread.
     *
     * @param threadName the thread's name
     * @param waiting    the requests handed over and not yet taken (the owner hands them to it)
     * @param stop       the marker that stops the thread after the group it is taken with
     * @param stage      what the thread does with each group
     */
    public GroupCommit(String threadName, BlockingQueue<T> waiting, T stop, Stage<T> stage) {
        this.waiting = Objects.requireNonNull(waiting, "waiting");
        this.stop = Objects.requireNonNull(stop, "stop");
        this.stage = Objects.requireNonNull(stage, "stage");
        this.thread = new Thread(this::run, Objects.requireNonNull(threadName, "threadName"));
        this.thread.setDaemon(true);
    }

    /** Starts the thread. */
    public void start() {
        thread.start();
    }

    /**
     * Whether the thread runs.
     *
     * @return true from {@link #start()} until the thread ended
     */
    public boolean isAlive() {
        return thread.isAlive();
    }

    /**
     * Waits for the thread to end.
     *
     * @throws InterruptedException if the caller is interrupted while it waits
     */
    public void join() throws InterruptedException {
        thread.join();
    }

    /**
     * Waits at most {@code timeout} for the thread to end.
     *
     * @param timeout the longest wait
     * @throws InterruptedException if the caller is interrupted while it waits
     */
    public void join(Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
    }

    private void run() {
        List<T> group = new ArrayList<>();
        try {
            while (true) {
                group.clear();
                group.add(waiting.take());
                waiting.drainTo(group);
                boolean stopped = group.remove(stop);
                if (!group.isEmpty()) {
                    stage.commit(group);
                }
                if (stopped) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stage.died(group, e);
        } catch (Throwable e) {
            stage.died(group, e);
        } finally {
            stage.ended();
        }
    }
}
