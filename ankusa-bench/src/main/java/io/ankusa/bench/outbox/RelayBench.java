package io.ankusa.bench.outbox;

import io.ankusa.api.Hook;
import io.ankusa.api.IntakePosition;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.jdbc.AnkusaOutbox;
import io.ankusa.jdbc.OutboxDialect;
import io.ankusa.jdbc.OutboxRelay;
import io.ankusa.jdbc.RelayStats;
import io.ankusa.queue.Queue;
import io.ankusa.tests.postgres.PostgresCluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The outbox relay's cost ({@code ankusa-jdbc}), against a private PostgreSQL on 127.0.0.1: hooks
 * per second relayed from a backlog already committed in the outbox table, against the same hooks
 * handed to {@code Queue.ingest} with intake positions directly in passes of the relay's size; and
 * the latency from an application's {@code commit()} returning to the hook's receipt from the queue
 * (p50, p99, max), with single-row transactions committed at {@code ankusa.bench.relayRate} per
 * second (1 000) and the relay woken by {@code LISTEN}. Rules: the relay at least half of direct
 * ingest's rate, and p99 at most 100 ms. Options: {@code ankusa.bench.relayHooks} (20 000),
 * {@code ankusa.bench.relayCommits} (2 000), {@code ankusa.bench.relayRate} (1 000). RocksDB store.
 */
public final class RelayBench {

    private static final int HOOKS = Integer.getInteger("ankusa.bench.relayHooks", 20_000);
    private static final int COMMITS = Integer.getInteger("ankusa.bench.relayCommits", 2_000);
    private static final int RATE = Integer.getInteger("ankusa.bench.relayRate", 1_000);
    private static final int PASS = 500;

    private RelayBench() {
    }

    /**
     * Runs the bench; exits non-zero when a rule fails.
     *
     * @param args none
     * @throws Exception when the database or the store fails
     */
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("ankusa-relay-bench");
        List<String> failures = new ArrayList<>();
        try (PostgresCluster cluster = PostgresCluster.start()) {
            AnkusaOutbox outbox = AnkusaOutbox.builder(OutboxDialect.POSTGRESQL).build();
            try (Connection c = cluster.connect()) {
                outbox.createTables(c);
            }
            double direct = direct(dir.resolve("direct"));
            double relayed = relayed(cluster, outbox, dir.resolve("relayed"));
            long[] latencies = latencies(cluster, outbox, dir.resolve("latency"));
            System.out.printf(Locale.ROOT, "RelayBench: PostgreSQL %s, %d hooks of 64 B over 100 tenants, rocksdb%n%n",
                    cluster.version(), HOOKS);
            System.out.println("Relay throughput against direct ingest with positions");
            System.out.println();
            System.out.println("| backend | direct ingest (hooks/s) | relay from the table (hooks/s) | relay / direct |");
            System.out.println("|---|---:|---:|---:|");
            System.out.printf(Locale.ROOT, "| rocksdb | %.0f | %.0f | %.2f |%n%n", direct, relayed, relayed / direct);
            System.out.printf(Locale.ROOT, "Commit to receipt, %d single-row transactions at %d/s%n%n", COMMITS, RATE);
            System.out.println("| backend | p50 (ms) | p99 (ms) | max (ms) |");
            System.out.println("|---|---:|---:|---:|");
            double p99 = ms(latencies, 0.99);
            System.out.printf(Locale.ROOT, "| rocksdb | %.1f | %.1f | %.1f |%n%n", ms(latencies, 0.50), p99,
                    latencies[latencies.length - 1] / 1e6);
            rule(failures, relayed >= 0.5 * direct,
                    String.format(Locale.ROOT, "relay at least 0.5x direct ingest: %.2f", relayed / direct));
            rule(failures, p99 <= 100,
                    String.format(Locale.ROOT, "commit to receipt p99 at most 100 ms at %d/s: %.1f ms", RATE, p99));
        } finally {
            deleteTree(dir);
        }
        if (!failures.isEmpty()) {
            System.exit(1);
        }
    }

    private static void rule(List<String> failures, boolean held, String rule) {
        System.out.println((held ? "PASS " : "FAIL ") + rule);
        if (!held) {
            failures.add(rule);
        }
    }

    private static Queue queue(Path store) {
        return Queue.open(QueueConfig.builder(store).backend("rocksdb").build());
    }

    private static Hook hook(int i) {
        return Hook.builder().id("h" + i).sourceId("bench").tenantId("t" + (i / 10 % 100)).payload(new byte[64])
                .sinks(0).build();
    }

    private static double direct(Path store) {
        try (Queue queue = queue(store)) {
            long start = System.nanoTime();
            List<CompletableFuture<Receipt>> receipts = new ArrayList<>(PASS);
            for (int i = 0; i < HOOKS; i++) {
                receipts.add(queue.ingest(hook(i), new IntakePosition("bench", i + 1), Duration.ofSeconds(5)));
                if (receipts.size() == PASS) { // the relay's pass: a batch in flight, then wait for it
                    receipts.forEach(CompletableFuture::join);
                    receipts.clear();
                }
            }
            receipts.forEach(CompletableFuture::join);
            return HOOKS / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static double relayed(PostgresCluster cluster, AnkusaOutbox outbox, Path store) throws Exception {
        try (Connection c = cluster.connect()) {
            c.setAutoCommit(false);
            for (int i = 0; i < HOOKS; i++) {
                outbox.add(c, hook(i));
                if (i % 100 == 99) {
                    c.commit();
                }
            }
            c.commit();
        }
        try (Queue queue = queue(store);
                OutboxRelay relay = OutboxRelay.builder(cluster.dataSource("bench"), queue, OutboxDialect.POSTGRESQL)
                        .takeoverDelay(Duration.ZERO).build()) {
            long start = System.nanoTime();
            relay.start();
            await(Duration.ofMinutes(10), "the backlog relayed", () -> relay.stats().relayed() == HOOKS);
            return HOOKS / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static long[] latencies(PostgresCluster cluster, AnkusaOutbox outbox, Path store) throws Exception {
        Map<String, Long> receivedAt = new ConcurrentHashMap<>();
        try (Queue queue = queue(store)) {
            Queue timed = timed(queue, receivedAt);
            long[] committedAt = new long[COMMITS];
            try (OutboxRelay relay = OutboxRelay.builder(cluster.dataSource("bench-latency"), timed,
                    OutboxDialect.POSTGRESQL).takeoverDelay(Duration.ZERO).build().start();
                    Connection c = cluster.connect()) {
                await(Duration.ofSeconds(30), "the relay", () -> relay.stats().state() == RelayStats.State.RELAYING);
                c.setAutoCommit(false);
                // Warm-up: the new store has no position, so the first pass waits at the ids of the
                // throughput phase (a gap) before it relays; measure from a relay that has caught up.
                outbox.add(c, hook(HOOKS + COMMITS));
                c.commit();
                await(Duration.ofSeconds(30), "the warm-up receipt", () -> receivedAt.size() == 1);
                receivedAt.clear();
                long interval = TimeUnit.SECONDS.toNanos(1) / RATE;
                long next = System.nanoTime();
                for (int i = 0; i < COMMITS; i++) {
                    outbox.add(c, hook(HOOKS + i));
                    c.commit();
                    committedAt[i] = System.nanoTime();
                    next += interval;
                    LockSupport.parkNanos(next - System.nanoTime()); // the pacing of the load, not a wait for a result
                }
                await(Duration.ofSeconds(60), "every receipt", () -> receivedAt.size() == COMMITS);
            }
            long[] latencies = new long[COMMITS];
            for (int i = 0; i < COMMITS; i++) {
                latencies[i] = receivedAt.get("h" + (HOOKS + i)) - committedAt[i];
            }
            Arrays.sort(latencies);
            return latencies;
        }
    }

    /** {@code queue}, noting when each receipt of an ingest with a position completes. */
    private static Queue timed(Queue queue, Map<String, Long> receivedAt) {
        return (Queue) Proxy.newProxyInstance(Queue.class.getClassLoader(), new Class<?>[] {Queue.class},
                (proxy, method, args) -> {
                    try {
                        Object result = method.invoke(queue, args);
                        if (method.getName().equals("ingest") && args.length == 3) {
                            String id = ((Hook) args[0]).id();
                            @SuppressWarnings("unchecked")
                            CompletableFuture<Receipt> receipt = (CompletableFuture<Receipt>) result;
                            return receipt.thenApply(r -> {
                                receivedAt.put(id, System.nanoTime());
                                return r;
                            });
                        }
                        return result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static void await(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
