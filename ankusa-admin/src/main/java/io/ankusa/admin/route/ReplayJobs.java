package io.ankusa.admin.route;

import io.ankusa.dispatch.DeadLetterFilter;
import io.ankusa.dispatch.ReplayJob;
import io.ankusa.dispatch.Replayer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bulk replays the API started: run one at a time on one daemon thread of their own, at most
 * {@value #MAX_WAITING} waiting or running, and the {@value #KEPT} most recent kept in memory (a
 * restart forgets them; the audit trail keeps what they revived). Closing cancels every job and
 * stops the thread.
 */
final class ReplayJobs implements AutoCloseable {

    /** Jobs waiting or running at once; one more is refused. */
    static final int MAX_WAITING = 4;

    /** Jobs kept, newest first; older finished ones are forgotten. */
    static final int KEPT = 50;

    private final Replayer replayer;
    private final Clock clock;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ankusa-admin-replay");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong ids = new AtomicLong();
    private final Deque<Entry> recent = new ArrayDeque<>();

    ReplayJobs(Replayer replayer, Clock clock) {
        this.replayer = replayer;
        this.clock = clock;
    }

    /** One job the API started, with who started it and when it started and finished. */
    static final class Entry {
        private final String id;
        private final String actor;
        private final ReplayJob job;
        private final Instant createdAt;
        private volatile Instant startedAt;
        private volatile Instant finishedAt;

        Entry(String id, String actor, ReplayJob job, Instant createdAt) {
            this.id = id;
            this.actor = actor;
            this.job = job;
            this.createdAt = createdAt;
        }

        String id() {
            return id;
        }

        String actor() {
            return actor;
        }

        ReplayJob job() {
            return job;
        }

        Instant createdAt() {
            return createdAt;
        }

        Optional<Instant> startedAt() {
            return Optional.ofNullable(startedAt);
        }

        Optional<Instant> finishedAt() {
            return Optional.ofNullable(finishedAt);
        }
    }

    /** Queues a job of {@code filter} started by {@code actor}; refused (409) when too many wait. */
    synchronized Entry start(DeadLetterFilter filter, String actor) {
        long waiting = recent.stream().filter(e -> !e.job().progress().state().finished()).count();
        if (waiting >= MAX_WAITING) {
            throw new ApiException(409, "replay_busy", waiting + " bulk replays are waiting or running; "
                    + "wait for one to finish or cancel one");
        }
        Entry entry = new Entry("r" + ids.incrementAndGet(), actor, replayer.actingAs(actor).job(filter),
                clock.instant());
        try {
            executor.execute(() -> {
                entry.startedAt = clock.instant();
                try {
                    entry.job().run();
                } finally {
                    entry.finishedAt = clock.instant();
                }
            });
        } catch (RejectedExecutionException e) {
            throw new ApiException(503, "closed", "the admin API is shutting down");
        }
        recent.addFirst(entry);
        while (recent.size() > KEPT && recent.peekLast().job().progress().state().finished()) {
            recent.removeLast();
        }
        return entry;
    }

    /** The job {@code id}, if it is kept. */
    synchronized Optional<Entry> find(String id) {
        return recent.stream().filter(e -> e.id().equals(id)).findFirst();
    }

    /** The kept jobs, newest first. */
    synchronized List<Entry> recent() {
        return new ArrayList<>(recent);
    }

    @Override
    public void close() {
        synchronized (this) {
            recent.forEach(e -> e.job().cancel());
        }
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
