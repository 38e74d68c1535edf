package io.ankusa.bench.outbox;

import io.ankusa.tests.postgres.PostgresCluster;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The PostgreSQL outbox Ankusa is measured against: what a competent team writes instead of
 * embedding a queue.
 *
 * <pre>
 * hook(id bigserial primary key, ext_id text, tenant text, payload bytea, created_at timestamptz)
 * delivery(id bigserial primary key, hook_id bigint, sink int, due_at timestamptz, attempts int,
 *          claimed_until timestamptz)
 * index delivery_due on delivery(due_at) where claimed_until is null
 * </pre>
 *
 * <ul>
 * <li><b>Ingest</b>: each writer connection takes the next {@value #BATCH} hooks and inserts them
 *     and their delivery rows with one prepared statement (a data-modifying CTE over
 *     {@code unnest} of three arrays: one round trip, one transaction per batch); the batch is
 *     acknowledged when its commit returns, which with {@code synchronous_commit=on} is after the
 *     WAL is flushed.</li>
 * <li><b>Drain</b>: each worker claims up to {@code limit} due rows with
 *     {@code UPDATE … WHERE id IN (SELECT … ORDER BY due_at LIMIT n FOR UPDATE SKIP LOCKED)
 *     RETURNING} joined to the hook for its id, tenant and payload (one statement, its own synced
 *     commit), hands every row to the sink, then settles the batch with one
 *     {@code DELETE … WHERE id = ANY(?)} (a synced commit), and claims again; it stops when a
 *     claim returns nothing. Hooks are left for a cleanup job, as Ankusa leaves its hooks to
 *     housekeeping. No foreign key from delivery to hook (it would cost a lookup per row).</li>
 * </ul>
 */
final class PostgresOutbox {

    /** Hooks per ingest transaction, as Ankusa's group commit. */
    static final int BATCH = 256;

    private static final String INGEST = """
            WITH h AS (
              INSERT INTO hook (ext_id, tenant, payload)
              SELECT * FROM unnest(?::text[], ?::text[], ?::bytea[])
              RETURNING id)
            INSERT INTO delivery (hook_id, sink, due_at) SELECT id, 0, now() FROM h""";

    private static final String CLAIM = """
            UPDATE delivery d SET claimed_until = now() + interval '30 seconds', attempts = d.attempts + 1
            FROM hook h
            WHERE d.id IN (SELECT id FROM delivery WHERE due_at <= now() AND claimed_until IS NULL
                           ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED)
              AND h.id = d.hook_id
            RETURNING d.id, h.ext_id, h.tenant, h.payload, d.sink, d.attempts""";

    private static final String SETTLE = "DELETE FROM delivery WHERE id = ANY(?)";

    private final PostgresCluster cluster;

    PostgresOutbox(PostgresCluster cluster) {
        this.cluster = cluster;
    }

    /** Drops and recreates both tables and the index. */
    void reset() throws SQLException {
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS delivery, hook");
            s.execute("CREATE TABLE hook (id bigserial PRIMARY KEY, ext_id text NOT NULL, tenant text NOT NULL, "
                    + "payload bytea NOT NULL, created_at timestamptz NOT NULL DEFAULT now())");
            s.execute("CREATE TABLE delivery (id bigserial PRIMARY KEY, hook_id bigint NOT NULL, sink int NOT NULL, "
                    + "due_at timestamptz NOT NULL, attempts int NOT NULL DEFAULT 0, claimed_until timestamptz)");
            s.execute("CREATE INDEX delivery_due ON delivery (due_at) WHERE claimed_until IS NULL");
            s.execute("CHECKPOINT");
        }
    }

    /** Refreshes the planner's statistics and visibility map after a bulk load (as autovacuum would). */
    void vacuumAnalyze() throws SQLException {
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.execute("VACUUM ANALYZE hook, delivery");
        }
    }

    /**
     * Inserts hooks {@code from} … {@code to - 1} of {@code work} over {@code writers} connections;
     * returns the seconds from the first insert to the last acknowledged commit.
     */
    double ingest(Workload work, int from, int to, int writers) throws Exception {
        List<Connection> connections = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            connections.add(cluster.connect());
        }
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            AtomicInteger next = new AtomicInteger(from);
            long start = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (Connection c : connections) {
                running.add(pool.submit(() -> {
                    write(c, work, next, to);
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            return (System.nanoTime() - start) / 1e9;
        } finally {
            pool.shutdown();
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    private static void write(Connection c, Workload work, AtomicInteger next, int to) throws SQLException {
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement(INGEST)) {
            int first;
            while ((first = next.getAndAdd(BATCH)) < to) {
                int n = Math.min(BATCH, to - first);
                String[] ids = new String[n];
                String[] tenants = new String[n];
                byte[][] payloads = new byte[n][];
                for (int i = 0; i < n; i++) {
                    ids[i] = work.id(first + i);
                    tenants[i] = work.tenant(first + i);
                    payloads[i] = work.payload(first + i);
                }
                Array idArray = c.createArrayOf("text", ids);
                Array tenantArray = c.createArrayOf("text", tenants);
                Array payloadArray = c.createArrayOf("bytea", payloads);
                insert.setArray(1, idArray);
                insert.setArray(2, tenantArray);
                insert.setArray(3, payloadArray);
                if (insert.executeUpdate() != n) {
                    throw new IllegalStateException("a batch of " + n + " hooks inserted a different number of deliveries");
                }
                c.commit();
                idArray.free();
                tenantArray.free();
                payloadArray.free();
            }
        }
    }

    /**
     * Drains every due delivery with {@code workers} workers claiming up to {@code limit} rows each;
     * every row claimed increments {@code seen} at its hook's index. Returns the seconds until the
     * last worker found nothing left to claim (everything it claimed settled).
     */
    double drain(int workers, int limit, AtomicIntegerArray seen) throws Exception {
        List<Connection> connections = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            connections.add(cluster.connect());
        }
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            long start = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (Connection c : connections) {
                running.add(pool.submit(() -> {
                    work(c, limit, seen);
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            return (System.nanoTime() - start) / 1e9;
        } finally {
            pool.shutdown();
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    private static void work(Connection c, int limit, AtomicIntegerArray seen) throws SQLException {
        c.setAutoCommit(true);
        try (PreparedStatement claim = c.prepareStatement(CLAIM); PreparedStatement settle = c.prepareStatement(SETTLE)) {
            claim.setInt(1, limit);
            while (true) {
                Long[] claimed = new Long[limit];
                int n = 0;
                try (ResultSet rows = claim.executeQuery()) {
                    while (rows.next()) {
                        claimed[n++] = rows.getLong(1);
                        deliver(rows.getString(2), rows.getString(3), rows.getBytes(4), seen);
                    }
                }
                if (n == 0) {
                    return;
                }
                Long[] ids = n == limit ? claimed : java.util.Arrays.copyOf(claimed, n);
                Array idArray = c.createArrayOf("int8", ids);
                settle.setArray(1, idArray);
                if (settle.executeUpdate() != n) {
                    throw new IllegalStateException("a settle deleted fewer rows than the claim returned");
                }
                idArray.free();
            }
        }
    }

    /** The no-op sink: counts the delivery and answers "delivered". */
    private static void deliver(String hookId, String tenant, byte[] payload, AtomicIntegerArray seen) {
        if (tenant.isEmpty() || payload.length != Workload.PAYLOAD) {
            throw new IllegalStateException("hook " + hookId + " came back damaged");
        }
        seen.incrementAndGet(Workload.indexOf(hookId));
    }

    /** Delivery rows left (0 after a drain). */
    long deliveriesLeft() throws SQLException {
        try (Connection c = cluster.connect(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM delivery")) {
            r.next();
            return r.getLong(1);
        }
    }

    /** Hooks stored. */
    long hooks() throws SQLException {
        try (Connection c = cluster.connect(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM hook")) {
            r.next();
            return r.getLong(1);
        }
    }
}
