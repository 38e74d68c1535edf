package io.ankusa.jdbc;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.Hook;
import io.ankusa.api.IntakePosition;
import io.ankusa.api.InvalidHookException;
import io.ankusa.api.QueueClosedException;
import io.ankusa.api.QueueFailedException;
import io.ankusa.api.Receipt;
import io.ankusa.api.TenantErasingException;
import io.ankusa.api.TenantLimitException;
import io.ankusa.api.TenantOverloadedException;
import io.ankusa.queue.Queue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay's thread: takes the table's lock, then runs passes until closed.
 *
 * <p><b>Why nothing is ingested twice.</b> A pass reads the queue's intake position <i>P</i> for
 * the table, then the rows above it in id order, and ingests each with its id as the position. The
 * queue writes a hook and its position in one synced batch, so after any crash every row at or
 * below <i>P</i> that the relay accepted is in the store, and every row above <i>P</i> is not (ids
 * rise with submission order on one thread, and the queue keeps the batch's last position). A row
 * at or below <i>P</i> that is still in the table was therefore relayed before a crash cut the
 * pass's delete short — unless its id lies in a recorded gap (below) — and is deleted without
 * being ingested again.
 *
 * <p><b>Why no committed row is skipped.</b> Ids are taken at insert and become visible at commit,
 * so a pass can see id <i>n+2</i> while <i>n+1</i> is still open — or rolled back, and never to be
 * seen. A pass relays rows in id order up to the first missing id and stops there; once the same
 * missing range has been waited on for {@code gapWait} (on PostgreSQL, or once every transaction
 * open when it was first seen has ended: see {@link #gapLeft}), the pass records it in the gap table
 * (committed before any higher row is ingested) and goes on. A row that commits inside a recorded
 * gap after the position passed it is at or below <i>P</i> and in a gap: it was never ingested, and
 * moving it to the refused table ({@code late_commit}) is the only move that is neither a loss nor
 * a possible duplicate. Gap records are kept for {@link #GAP_RETENTION}.
 *
 * <p><b>Refusals and failures in a pass.</b> A refused row (the queue's refusal is final) moves to
 * the refused table and leaves the outbox in one transaction. A row whose ingest failed otherwise
 * (a store error, back-pressure) stays if the position did not pass it, and is read again;
 * if a later row of the same pass landed (the queue commits in batches, and a later batch may
 * succeed) it is written again under a new id and the old row deleted, in one transaction. Both
 * moves run after the pass's ingests complete: a relay that dies after a later row of its pass
 * committed and before that transaction leaves such a row below <i>P</i> outside any gap, and the
 * next pass deletes it as relayed. That window — a refusal or store failure, then a crash within
 * the same pass — is the one way a row is lost.
 *
 * <p><b>Fencing.</b> Every statement runs on the session that holds the lock. A relay does not hand
 * a row to the queue later than {@code takeoverDelay / 2} after its last successful statement, and
 * a relay that takes the lock waits {@code takeoverDelay} before its first read: the old relay's
 * last ingest is submitted before the new one reads the position.
 */
final class RelayLoop {

    private static final Logger LOG = LoggerFactory.getLogger(RelayLoop.class);

    /** How long a passed gap is remembered: a row that commits later than this is deleted as relayed. */
    static final Duration GAP_RETENTION = Duration.ofDays(1);

    /** The least time a gap is waited on before the PostgreSQL snapshot test may pass it. */
    private static final long GAP_SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** How long a relay waits before it reconnects after its session failed. */
    private static final long RECONNECT_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** The longest a listening relay blocks in one wait, so that close() is seen promptly. */
    private static final int LISTEN_SLICE_MILLIS = 200;

    private final DataSource dataSource;
    private final Queue queue;
    private final OutboxDialect dialect;
    private final String table;
    private final long pollNanos;
    private final long gapWaitNanos;
    private final long takeoverNanos;
    private final int batchSize;
    private final Duration ingestTimeout;
    private final boolean listen;
    private final Object monitor = new Object();
    private final Thread thread;

    private final AtomicLong relayed = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong late = new AtomicLong();
    private final AtomicLong requeued = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong gapsPassed = new AtomicLong();
    private final AtomicLong acquisitions = new AtomicLong();

    private volatile RelayStats.State state = RelayStats.State.NEW;
    private volatile boolean closing;
    private volatile Throwable failure;

    // The relay thread's own state.
    /** The gaps seen and not passed yet, by first missing id: each waits from when it was first seen. */
    private final NavigableMap<Long, GapWatch> gapWatches = new TreeMap<>();
    private long lastStatementNanos;
    private long lastPruneNanos;

    RelayLoop(DataSource dataSource, Queue queue, OutboxDialect dialect, String table, Duration pollInterval,
            Duration gapWait, Duration takeoverDelay, int batchSize, Duration ingestTimeout, boolean listen) {
        this.dataSource = dataSource;
        this.queue = queue;
        this.dialect = dialect;
        this.table = table;
        this.pollNanos = pollInterval.toNanos();
        this.gapWaitNanos = gapWait.toNanos();
        this.takeoverNanos = takeoverDelay.toNanos();
        this.batchSize = batchSize;
        this.ingestTimeout = ingestTimeout;
        this.listen = listen && dialect == OutboxDialect.POSTGRESQL;
        this.thread = new Thread(this::run, "ankusa-outbox-relay-" + table);
        this.thread.setDaemon(false);
        if (takeoverNanos == 0) {
            LOG.warn("outbox relay {}: takeover delay 0: a relay that lost its lock is not fenced", table);
        }
    }

    synchronized void start() {
        if (state != RelayStats.State.NEW) {
            throw new IllegalStateException("the relay was started before");
        }
        state = RelayStats.State.WAITING;
        thread.start();
    }

    RelayStats stats() {
        return new RelayStats(state, relayed.get(), refused.get(), late.get(), requeued.get(), skipped.get(),
                gapsPassed.get(), acquisitions.get());
    }

    Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    void close() {
        synchronized (monitor) {
            closing = true;
            monitor.notifyAll();
        }
        if (thread.isAlive() && Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (state != RelayStats.State.FAILED) {
            state = RelayStats.State.CLOSED;
        }
    }

    private void run() {
        while (!closing && failure == null) {
            Connection session = null;
            boolean reconnect = false;
            try {
                session = dataSource.getConnection();
                session.setAutoCommit(true);
                if (!acquire(session)) {
                    break;
                }
                relay(session);
            } catch (SQLException | OutboxException e) {
                LOG.warn("outbox relay {}: its database session failed; reconnecting: {}", table, e.toString());
                reconnect = true;
            } catch (QueueClosedException | QueueFailedException e) {
                LOG.error("outbox relay {}: the queue stopped; the relay stops: {}", table, e.toString());
                failure = e;
            } finally {
                release(session);
                if (failure != null) {
                    state = RelayStats.State.FAILED;
                } else if (!closing) {
                    state = RelayStats.State.WAITING;
                }
            }
            if (reconnect) {
                pause(RECONNECT_NANOS);
            }
        }
    }

    /** Tries the lock every poll interval until it is held (true) or the relay closes (false). */
    private boolean acquire(Connection session) throws SQLException {
        Object key = dialect.lockKey(table);
        while (!closing) {
            try (PreparedStatement lock = session.prepareStatement(dialect.tryLock())) {
                lock.setObject(1, key);
                try (ResultSet result = lock.executeQuery()) {
                    if (result.next() && result.getBoolean(1)) {
                        acquisitions.incrementAndGet();
                        LOG.info("outbox relay {}: took the lock; relaying after the takeover delay", table);
                        pause(takeoverNanos);
                        return !closing;
                    }
                }
            }
            pause(pollNanos);
        }
        return false;
    }

    private void relay(Connection session) throws SQLException {
        Wakeup wakeup = Wakeup.open(session, table, listen);
        try {
            state = RelayStats.State.RELAYING;
            lastPruneNanos = System.nanoTime() - TimeUnit.HOURS.toNanos(2);
            while (!closing) {
                long waitNanos = pass(session);
                if (waitNanos > 0 && !closing) {
                    await(wakeup, waitNanos);
                }
            }
        } finally {
            wakeup.close();
        }
    }

    /** One pass; returns how long to wait before the next one (0: go on at once). */
    private long pass(Connection session) throws SQLException {
        long now = System.nanoTime();
        if (now - lastPruneNanos > TimeUnit.HOURS.toNanos(1)) {
            pruneGaps(session);
            lastPruneNanos = now;
        }
        long position = queue.intakePosition(table).orElse(0L);
        if (settleBelow(session, position)) {
            return 0;
        }
        List<OutboxRow> rows = select(session, "id > ?", position);
        lastStatementNanos = System.nanoTime();
        List<OutboxRow> take = new ArrayList<>(rows.size());
        gapWatches.headMap(position, true).clear(); // filled or passed
        long expected = position + 1;
        long gapWaitLeft = 0;
        long[] snapshot = null;
        for (OutboxRow row : rows) {
            if (row.id > expected) {
                if (snapshot == null) {
                    snapshot = snapshot(session);
                }
                // every gap in the rows read is watched from now, not once the gaps before it are passed
                long left = gapLeft(expected, snapshot);
                if (gapWaitLeft > 0 || left > 0) {
                    gapWaitLeft = gapWaitLeft > 0 ? gapWaitLeft : left;
                    expected = row.id + 1;
                    continue;
                }
                recordGap(session, expected, row.id - 1);
            }
            if (gapWaitLeft == 0) {
                take.add(row);
            }
            expected = row.id + 1;
        }
        if (take.isEmpty()) {
            return gapWaitLeft > 0 ? Math.min(gapWaitLeft, pollNanos) : pollNanos;
        }
        ingest(session, take);
        return gapWaitLeft > 0 ? Math.min(gapWaitLeft, pollNanos) : 0;
    }

    /**
     * Deletes the rows at or below the position (relayed before a crash cut a delete short) and
     * moves those in a recorded gap to the refused table; true when it found any.
     */
    private boolean settleBelow(Connection session, long position) throws SQLException {
        if (position == 0) {
            return false;
        }
        List<OutboxRow> below = select(session, "id <= ?", position);
        if (below.isEmpty()) {
            return false;
        }
        List<long[]> gaps = gaps(session, below.get(0).id, below.get(below.size() - 1).id);
        List<OutboxRow> relayedBefore = new ArrayList<>();
        List<OutboxRow> lateRows = new ArrayList<>();
        for (OutboxRow row : below) {
            boolean inGap = false;
            for (long[] gap : gaps) {
                inGap |= row.id >= gap[0] && row.id <= gap[1];
            }
            (inGap ? lateRows : relayedBefore).add(row);
        }
        transaction(session, () -> {
            delete(session, relayedBefore);
            for (OutboxRow row : lateRows) {
                refuse(session, row, "late_commit", "row committed after the relay passed its id as a gap (gap wait "
                        + Duration.ofNanos(gapWaitNanos) + "); it was not ingested");
            }
        });
        skipped.addAndGet(relayedBefore.size());
        late.addAndGet(lateRows.size());
        if (!lateRows.isEmpty()) {
            LOG.warn("outbox relay {}: {} rows committed after their id was passed; moved to {}_refused as late_commit",
                    table, lateRows.size(), table);
        }
        return true;
    }

    /** When a gap was first seen, and (PostgreSQL) the xmax of the server's snapshot then, else -1. */
    private record GapWatch(long seenNanos, long xmax) {
    }

    /**
     * How much longer the gap starting at {@code start} is waited on; 0 once it may be passed. On
     * PostgreSQL a gap is also passed once every transaction that was open when the gap was first
     * seen has ended (the server's oldest running transaction id has reached the xmax of the
     * snapshot taken then), and at least {@link #GAP_SETTLE_NANOS} went by: a transaction that
     * took a missing id took it before the later id was committed and seen, so it held an xid
     * below that xmax — unless it had taken the id and not yet its xid (the microseconds between
     * a row's id and its heap insert), which the settle time covers.
     *
     * @param snapshot {xmin, xmax} of the server's current snapshot, taken in this pass, or
     *        {-1, -1} where the dialect has none
     */
    private long gapLeft(long start, long[] snapshot) {
        long now = System.nanoTime();
        GapWatch watch = gapWatches.computeIfAbsent(start, s -> new GapWatch(now, snapshot[1]));
        long waited = now - watch.seenNanos();
        long left = Math.max(0, gapWaitNanos - waited);
        if (left == 0 || watch.xmax() < 0) {
            return left;
        }
        if (waited >= GAP_SETTLE_NANOS && snapshot[0] >= watch.xmax()) {
            return 0;
        }
        return Math.min(left, GAP_SETTLE_NANOS);
    }

    /** {xmin, xmax} of the server's current snapshot on PostgreSQL; {-1, -1} elsewhere. */
    private long[] snapshot(Connection session) throws SQLException {
        if (dialect != OutboxDialect.POSTGRESQL) {
            return new long[] {-1, -1};
        }
        try (PreparedStatement select = session.prepareStatement("SELECT pg_snapshot_xmin(s)::text, "
                + "pg_snapshot_xmax(s)::text FROM pg_current_snapshot() AS s");
                ResultSet result = select.executeQuery()) {
            result.next();
            // xid8 is unsigned 64-bit and starts near 0; a server does not reach 2^63 transactions
            return new long[] {Long.parseLong(result.getString(1)), Long.parseLong(result.getString(2))};
        }
    }

    /** Records a passed gap; committed before any row above it is ingested. */
    private void recordGap(Connection session, long from, long to) throws SQLException {
        transaction(session, () -> {
            try (PreparedStatement delete = session.prepareStatement(
                    "DELETE FROM " + table + "_gaps WHERE from_id = ?");
                    PreparedStatement insert = session.prepareStatement(
                            "INSERT INTO " + table + "_gaps (from_id, to_id) VALUES (?, ?)")) {
                delete.setLong(1, from);
                delete.executeUpdate();
                insert.setLong(1, from);
                insert.setLong(2, to);
                insert.executeUpdate();
            }
        });
        gapsPassed.incrementAndGet();
        gapWatches.remove(from);
        LOG.info("outbox relay {}: passed missing ids {}..{} after the gap wait", table, from, to);
    }

    /** Ingests {@code rows} in id order and settles them in the table. */
    private void ingest(Connection session, List<OutboxRow> rows) throws SQLException {
        List<CompletableFuture<Receipt>> receipts = new ArrayList<>(rows.size());
        List<OutboxRow> submitted = new ArrayList<>(rows.size());
        List<OutboxRow> refusedRows = new ArrayList<>();
        List<AnkusaException> refusals = new ArrayList<>();
        for (OutboxRow row : rows) {
            if (closing || takeoverNanos > 0 && System.nanoTime() - lastStatementNanos > takeoverNanos / 2) {
                break; // fenced: a pass hands rows to the queue only shortly after its session answered
            }
            Hook hook;
            try {
                hook = row.toHook();
            } catch (InvalidHookException e) {
                refusedRows.add(row);
                refusals.add(e);
                continue;
            } catch (IllegalArgumentException e) {
                refusedRows.add(row);
                refusals.add(new InvalidHookException(InvalidHookException.Reason.PAYLOAD_INVALID,
                        "row does not decode: " + e.getMessage()));
                continue;
            }
            CompletableFuture<Receipt> receipt;
            try {
                receipt = queue.ingest(hook, new IntakePosition(table, row.id), ingestTimeout);
            } catch (RuntimeException e) {
                receipt = CompletableFuture.failedFuture(e);
            }
            receipts.add(receipt);
            submitted.add(row);
        }
        List<OutboxRow> accepted = new ArrayList<>();
        List<OutboxRow> failed = new ArrayList<>();
        AnkusaException stop = null;
        for (int i = 0; i < receipts.size(); i++) {
            Throwable error = outcome(receipts.get(i));
            OutboxRow row = submitted.get(i);
            if (error == null) {
                accepted.add(row);
            } else if (error instanceof InvalidHookException || error instanceof TenantLimitException
                    || error instanceof TenantErasingException || error instanceof TenantOverloadedException) {
                refusedRows.add(row);
                refusals.add((AnkusaException) error);
            } else {
                failed.add(row);
                if (error instanceof QueueClosedException || error instanceof QueueFailedException) {
                    stop = (AnkusaException) error;
                } else if (failed.size() == 1) {
                    LOG.warn("outbox relay {}: ingest of row {} failed; it is read again: {}", table, row.id,
                            error.toString());
                }
            }
        }
        long position = queue.intakePosition(table).orElse(0L);
        List<OutboxRow> passed = new ArrayList<>();
        for (OutboxRow row : failed) {
            if (row.id <= position) {
                passed.add(row);
            }
        }
        transaction(session, () -> {
            delete(session, accepted);
            for (int i = 0; i < refusedRows.size(); i++) {
                refuse(session, refusedRows.get(i), refusals.get(i).error(), refusals.get(i).getMessage());
            }
            requeue(session, passed);
        });
        lastStatementNanos = System.nanoTime();
        relayed.addAndGet(accepted.size());
        refused.addAndGet(refusedRows.size());
        requeued.addAndGet(passed.size());
        if (!refusedRows.isEmpty()) {
            LOG.warn("outbox relay {}: the queue refused {} rows; moved to {}_refused (first: {} {})", table,
                    refusedRows.size(), table, refusals.get(0).error(), refusals.get(0).getMessage());
        }
        if (stop != null) {
            throw stop;
        }
        if (!failed.isEmpty()) {
            pause(pollNanos); // back off: the store or the writer's queue needs a moment
        }
    }

    /** Waits for a receipt; the error it failed with, or null. */
    private static Throwable outcome(CompletableFuture<Receipt> receipt) {
        try {
            receipt.get();
            return null;
        } catch (ExecutionException | CompletionException e) {
            return e.getCause() != null ? e.getCause() : e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new QueueClosedException("interrupted while waiting for the queue");
        }
    }

    private List<OutboxRow> select(Connection session, String where, long position) throws SQLException {
        String sql = "SELECT " + OutboxRow.COLUMNS + " FROM " + table + " WHERE " + where + " ORDER BY id LIMIT ?";
        List<OutboxRow> rows = new ArrayList<>();
        try (PreparedStatement select = session.prepareStatement(sql)) {
            select.setLong(1, position);
            select.setInt(2, batchSize);
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    rows.add(OutboxRow.read(result));
                }
            }
        }
        return rows;
    }

    private List<long[]> gaps(Connection session, long from, long to) throws SQLException {
        List<long[]> gaps = new ArrayList<>();
        try (PreparedStatement select = session.prepareStatement(
                "SELECT from_id, to_id FROM " + table + "_gaps WHERE to_id >= ? AND from_id <= ?")) {
            select.setLong(1, from);
            select.setLong(2, to);
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    gaps.add(new long[] {result.getLong(1), result.getLong(2)});
                }
            }
        }
        return gaps;
    }

    private void pruneGaps(Connection session) throws SQLException {
        try (PreparedStatement prune = session.prepareStatement("DELETE FROM " + table + "_gaps WHERE passed_at < ?")) {
            prune.setTimestamp(1, new Timestamp(System.currentTimeMillis() - GAP_RETENTION.toMillis()));
            prune.executeUpdate();
        }
    }

    private void delete(Connection session, List<OutboxRow> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement delete = session.prepareStatement("DELETE FROM " + table + " WHERE id = ?")) {
            for (OutboxRow row : rows) {
                delete.setLong(1, row.id);
                delete.addBatch();
            }
            delete.executeBatch();
        }
    }

    private void refuse(Connection session, OutboxRow row, String error, String reason) throws SQLException {
        try (PreparedStatement insert = session.prepareStatement("INSERT INTO " + table + "_refused (id, tenant_id, "
                + "hook_id, source_id, event_type, idempotency_key, sinks, headers, payload, created_at, error, reason)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setLong(1, row.id);
            row.bindAll(insert, 2);
            insert.setString(11, error);
            insert.setString(12, reason);
            insert.executeUpdate();
        }
        delete(session, List.of(row));
    }

    private void requeue(Connection session, List<OutboxRow> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = session.prepareStatement("INSERT INTO " + table + " (tenant_id, hook_id, "
                + "source_id, event_type, idempotency_key, sinks, headers, payload, created_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (OutboxRow row : rows) {
                row.bindAll(insert, 1);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        delete(session, rows);
        LOG.warn("outbox relay {}: {} rows failed after a later row landed; written again under new ids", table,
                rows.size());
    }

    /** Statements run by {@link #transaction}. */
    private interface Statements {
        void run() throws SQLException;
    }

    private static void transaction(Connection session, Statements statements) throws SQLException {
        session.setAutoCommit(false);
        try {
            statements.run();
            session.commit();
        } catch (SQLException | RuntimeException e) {
            try {
                session.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            session.setAutoCommit(true);
        }
    }

    private void await(Wakeup wakeup, long nanos) throws SQLException {
        if (wakeup.listening()) {
            long deadline = System.nanoTime() + nanos;
            long left = nanos;
            while (!closing && left > 0) {
                int slice = (int) Math.max(1, Math.min(LISTEN_SLICE_MILLIS, TimeUnit.NANOSECONDS.toMillis(left)));
                if (wakeup.await(slice)) {
                    return;
                }
                left = deadline - System.nanoTime();
            }
        } else {
            pause(nanos);
        }
    }

    /** Sleeps up to {@code nanos}, or until {@link #close()}. */
    private void pause(long nanos) {
        long deadline = System.nanoTime() + nanos;
        synchronized (monitor) {
            long left = nanos;
            while (!closing && left > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(monitor, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    closing = true;
                    return;
                }
                left = deadline - System.nanoTime();
            }
        }
    }

    private void release(Connection session) {
        if (session == null) {
            return;
        }
        try {
            try (PreparedStatement unlock = session.prepareStatement(dialect.unlock())) {
                unlock.setObject(1, dialect.lockKey(table));
                unlock.execute();
            }
        } catch (SQLException e) {
            LOG.debug("outbox relay {}: unlock failed (the session ends anyway): {}", table, e.toString());
        }
        try {
            session.close();
        } catch (SQLException e) {
            LOG.debug("outbox relay {}: close failed: {}", table, e.toString());
        }
    }
}
