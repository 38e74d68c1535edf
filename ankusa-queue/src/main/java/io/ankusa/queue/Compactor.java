package io.ankusa.queue;

import io.ankusa.api.ArchiveOutcome;
import io.ankusa.api.ArchivedHook;
import io.ankusa.api.Archiver;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.HookKey;
import io.ankusa.queue.deliveries.ArchiveObligations;
import io.ankusa.queue.deliveries.HookEnvelope;
import io.ankusa.queue.engine.QueueEngine;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ArchiveCompactor}: reads the oldest obligations, the hooks with one multi-get, asks
 * the archiver hook by hook, and commits the round's settles and drops in one synced batch
 * ({@link ArchiveObligations#consume}). An archiver failure ends the round early; what was decided
 * before it is still committed.
 */
final class Compactor implements ArchiveCompactor {

    private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

    private static final int MAX_LIMIT = 10_000;

    private final Store store;
    private final ArchiveObligations obligations;
    private final Archiver archiver;
    private final ScheduledExecutorService thread;

    private Compactor(QueueEngine engine, Archiver archiver, ScheduledExecutorService thread) {
        this.store = engine.store();
        this.obligations = engine.archive();
        this.archiver = Objects.requireNonNull(archiver, "archiver");
        this.thread = thread;
    }

    /** A compactor with its own thread, a round every {@code interval}. */
    static Compactor start(QueueEngine engine, Archiver archiver, Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive: " + interval);
        }
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ankusa-archive-compactor");
            t.setDaemon(true);
            return t;
        });
        Compactor compactor = new Compactor(engine, archiver, thread);
        thread.scheduleWithFixedDelay(compactor::tick, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return compactor;
    }

    /** A compactor the caller drives. */
    static Compactor manual(QueueEngine engine, Archiver archiver) {
        return new Compactor(engine, archiver, null);
    }

    private void tick() {
        try {
            while (round(ROUND).more()) {
                // a full round that the archiver did not cut short: there may be more
            }
        } catch (RuntimeException e) {
            LOG.warn("archive compaction round failed; retrying next interval", e);
        }
    }

    @Override
    public int compact(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in 1.." + MAX_LIMIT + ": " + limit);
        }
        return round(limit).consumed();
    }

    private record Round(int consumed, boolean more) {
    }

    private synchronized Round round(int limit) {
        List<Long> seqs = obligations.oldest(limit);
        if (seqs.isEmpty()) {
            return new Round(0, false);
        }
        List<Optional<byte[]>> hooks =
                store.multiGet(ColumnFamilies.HOOKS, seqs.stream().map(s -> new HookKey(s).encode()).toList());
        List<Long> archived = new ArrayList<>();
        List<Long> dropped = new ArrayList<>();
        for (int i = 0; i < seqs.size(); i++) {
            long seq = seqs.get(i);
            if (hooks.get(i).isEmpty()) {
                LOG.warn("hook {} has an archive obligation but is gone; dropping the obligation", seq);
                dropped.add(seq);
                continue;
            }
            Optional<HookEnvelope> envelope = decode(seq, hooks.get(i).get());
            if (envelope.isEmpty()) {
                // Kept, counted in archive_pending, offered again next round: never archived nor dropped.
                continue;
            }
            ArchiveOutcome outcome;
            try {
                outcome = archiver.archive(new ArchivedHook(seq, Instant.ofEpochMilli(envelope.get().receivedAt()),
                        envelope.get().hook()));
            } catch (Exception e) {
                LOG.warn("archiver failed on hook {}; it stays pending and is offered again next round", seq, e);
                break;
            }
            if (outcome == ArchiveOutcome.ARCHIVED) {
                archived.add(seq);
            } else {
                dropped.add(seq);
            }
        }
        boolean finished = archived.size() + dropped.size() == seqs.size();
        return new Round(obligations.consume(archived, dropped), finished && seqs.size() == limit);
    }

    /**
     * The envelope, or empty when the stored hook does not decode: corruption, reported at ERROR;
     * its archive obligation is kept (an acknowledged hook is never silently left unarchived).
     */
    private static Optional<HookEnvelope> decode(long seq, byte[] raw) {
        try {
            return Optional.of(HookEnvelope.decode(raw));
        } catch (StoreCorruptionException e) {
            LOG.error("store corruption: hook {} does not decode; its archive obligation is kept and offered again"
                    + " next round (restore the hook from a backup): {}", seq, e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        thread.shutdown();
        try {
            if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("archive compactor still busy after 30 s; abandoning its thread");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
