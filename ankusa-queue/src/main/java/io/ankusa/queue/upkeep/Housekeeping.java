package io.ankusa.queue.upkeep;

import io.ankusa.queue.deliveries.AttemptHistory;
import io.ankusa.queue.intake.IdempotencyKeys;
import io.ankusa.queue.intake.IngestWriter;
import io.ankusa.queue.ledger.QueueFault;
import io.ankusa.store.StoreClosedException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What keeps the store from growing forever: reclaim of hooks nobody owes, the sweep of expired
 * dedupe keys, the pruning of audit entries past their retention and of attempt history past its own
 * retention or byte bound. Each runs in
 * batches (reclaim {@value #RECLAIM_BATCH} markers, the others {@value #BATCH} keys), repeated while
 * batches come back full, at most {@value #MAX_BATCHES} per task per round, so a round is bounded
 * and a backlog drains over a few rounds. Reclaim's batch is smaller because it holds the stripes
 * of its hooks' tenants while it checks them.
 *
 * <p>The dedupe sweep runs on the ingest writer's thread ({@link IngestWriter#submitChore}),
 * because only the writer may touch dedupe entries; the rest runs here. With an interval the
 * queue runs a round on its own daemon thread ({@code ankusa-housekeeping}); {@link #runOnce()}
 * runs one now (tests, tools).
 */
public final class Housekeeping implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Housekeeping.class);

    /** Items per batch of the dedupe sweep and audit pruning. */
    public static final int BATCH = 1_000;

    /** Cleared markers per reclaim batch. */
    public static final int RECLAIM_BATCH = 256;

    /** How far the queue clock moves before an idle round persists it again, ms. */
    public static final long CLOCK_PERSIST_MILLIS = 1_000;

    /** Batches per task per round at most. */
    public static final int MAX_BATCHES = 64;

    /**
     * What one round did.
     *
     * @param hooksReclaimed   hooks removed by reclaim
     * @param dedupeKeysSwept  expired dedupe expiry keys removed
     * @param auditPruned      audit entries removed
     * @param attemptsPruned   attempt history entries removed by the retention or the byte bound
     */
    public record Report(int hooksReclaimed, int dedupeKeysSwept, int auditPruned, int attemptsPruned) {

        /**
         * A round that pruned no attempt history.
         *
         * @param hooksReclaimed  hooks removed by reclaim
         * @param dedupeKeysSwept expired dedupe expiry keys removed
         * @param auditPruned     audit entries removed
         */
        public Report(int hooksReclaimed, int dedupeKeysSwept, int auditPruned) {
            this(hooksReclaimed, dedupeKeysSwept, auditPruned, 0);
        }
    }

    private final HookReclaimer reclaimer;
    private final IngestWriter writer;
    private final IdempotencyKeys idempotencyKeys;
    private final AuditLog audit;
    private final InstantSource clock;
    private final Duration auditRetention;
    private final QueueFault fault;
    private final AttemptHistory attempts;
    private final Duration attemptsRetention;
    private final long attemptsMaxBytes;
    /** Set once by {@link #start}; volatile because a failing round shuts it down without the lock
     *  (taking it there would deadlock with {@link #close()}, which waits for the round). */
    private volatile ScheduledExecutorService thread;

    /** Housekeeping over the queue's parts; a round that dies of an {@code Error} is recorded in {@code fault}. */
    public Housekeeping(HookReclaimer reclaimer, IngestWriter writer, IdempotencyKeys idempotencyKeys, AuditLog audit,
            InstantSource clock, Duration auditRetention, QueueFault fault, AttemptHistory attempts,
            Duration attemptsRetention, long attemptsMaxBytes) {
        this.attempts = Objects.requireNonNull(attempts, "attempts");
        this.attemptsMaxBytes = attemptsMaxBytes;
        this.attemptsRetention = Objects.requireNonNull(attemptsRetention, "attemptsRetention");
        this.fault = Objects.requireNonNull(fault, "fault");
        this.reclaimer = Objects.requireNonNull(reclaimer, "reclaimer");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.idempotencyKeys = Objects.requireNonNull(idempotencyKeys, "idempotencyKeys");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.auditRetention = Objects.requireNonNull(auditRetention, "auditRetention");
    }

    /** Runs a round every {@code interval} on a daemon thread, until {@link #close()}. */
    public synchronized void start(Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive: " + interval);
        }
        if (thread != null) {
            throw new IllegalStateException("housekeeping already started");
        }
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ankusa-housekeeping");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::scheduledRound, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void scheduledRound() {
        try {
            runOnce();
        } catch (StoreClosedException e) {
            LOG.debug("store closed under housekeeping", e);
        } catch (RuntimeException e) {
            LOG.warn("housekeeping round failed; retrying next interval", e);
        } catch (Throwable e) {
            // An Error would silently cancel the schedule: the queue reports itself failed instead.
            fault.fail("housekeeping", e);
            thread.shutdown();
        }
    }

    /**
     * One round of every task, now, on the calling thread (the sweep and the clock's
     * persistence on the writer's).
     */
    public Report runOnce() {
        Report report = new Report(reclaim(), sweepDedupe(), pruneAudit(), pruneAttempts());
        persistClock();
        return report;
    }

    /**
     * Has the writer persist the queue clock ({@code m:clock}) when it moved at least
     * {@value #CLOCK_PERSIST_MILLIS} ms since it last did: an idle queue's restart then starts
     * its clock no earlier than about one round ago.
     */
    public void persistClock() {
        try {
            writer.persistClockAfter(CLOCK_PERSIST_MILLIS).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /** Reclaim until a batch comes back short (at most {@value #MAX_BATCHES} batches); hooks removed. */
    public int reclaim() {
        int hooks = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            HookReclaimer.Round round = reclaimer.reclaim(RECLAIM_BATCH);
            hooks += round.hooks();
            if (round.markers() < RECLAIM_BATCH) {
                break;
            }
        }
        return hooks;
    }

    /** Sweeps expired dedupe keys on the writer thread; expiry keys removed. */
    public int sweepDedupe() {
        return repeat(() -> {
            try {
                return writer.submitChore(() -> idempotencyKeys.sweep(clock.millis(), BATCH)).join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        });
    }

    /** Prunes audit entries older than the retention; entries removed. */
    public int pruneAudit() {
        long cutoff = clock.millis() - auditRetention.toMillis();
        return repeat(() -> audit.prune(cutoff, BATCH));
    }

    /**
     * Removes attempt history entries older than the attempt retention, and the oldest ones while
     * the history is over {@code attempts.max-bytes} ({@link AttemptHistory#prune(long, long, long, int)});
     * entries removed.
     */
    public int pruneAttempts() {
        long now = clock.millis();
        long cutoff = now - attemptsRetention.toMillis();
        return repeat(() -> attempts.prune(cutoff, attemptsMaxBytes, now, BATCH));
    }

    private static int repeat(IntSupplier batch) {
        int total = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            int n = batch.getAsInt();
            total += n;
            if (n < BATCH) {
                break;
            }
        }
        return total;
    }

    /** Stops the thread after the round in progress. Idempotent. */
    @Override
    public synchronized void close() {
        if (thread == null) {
            return;
        }
        thread.shutdown();
        try {
            if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("housekeeping still busy after 30 s; abandoning its thread");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
