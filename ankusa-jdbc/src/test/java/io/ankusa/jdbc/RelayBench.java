package io.ankusa.jdbc;

import static io.ankusa.jdbc.OutboxFixture.await;

import io.ankusa.api.Hook;
import io.ankusa.api.IntakePosition;
import io.ankusa.api.Receipt;
import io.ankusa.queue.Queue;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay's cost, against a private PostgreSQL: hooks per second relayed from a backlog in the
 * table against the same hooks handed to {@code Queue.ingest} with positions directly, and the
 * latency from an application's commit returning to the hook's receipt from the queue, p50 and
 * p99, with the relay listening for notifications. Not part of the default build (the class name
 * matches no test pattern); run it with
 * {@code ./mvnw -B -o -pl ankusa-jdbc -am -Dtest=RelayBench -Dsurefire.failIfNoSpecifiedTests=false test}
 * and {@code -Dankusa.jdbc.benchHooks=N} (20 000 by default) and {@code -Dankusa.jdbc.benchCommits=N} (500).
 */
class RelayBench {

    private static final int HOOKS = Integer.getInteger("ankusa.jdbc.benchHooks", 20_000);
    private static final int COMMITS = Integer.getInteger("ankusa.jdbc.benchCommits", 500);

    @TempDir
    Path dir;

    @Test
    void relayThroughputAndCommitToReceiptLatency() throws Exception {
        try (PostgresCluster cluster = PostgresCluster.start()) {
            AnkusaOutbox outbox = AnkusaOutbox.builder(OutboxDialect.POSTGRESQL).build();
            try (Connection c = cluster.connect()) {
                outbox.createTables(c);
            }
            double direct = direct(dir.resolve("direct"));
            double relayed = relayed(cluster, outbox, dir.resolve("relayed"));
            long[] latencies = latencies(cluster, outbox, dir.resolve("latency"));
            System.out.printf("RelayBench: %d hooks of 64 B, rocksdb, one tenant per 10 hooks%n", HOOKS);
            System.out.printf("  direct Queue.ingest with positions: %,.0f hooks/s%n", direct);
            System.out.printf("  relay from a backlog in the table:   %,.0f hooks/s (%.0f %% of direct)%n", relayed,
                    100 * relayed / direct);
            System.out.printf("  commit -> receipt over %d single-row transactions:"
                    + " p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                    COMMITS, ms(latencies, 0.50), ms(latencies, 0.99), latencies[latencies.length - 1] / 1e6);
        }
    }

    private static Hook hook(int i) {
        return Hook.builder().id("h" + i).sourceId("bench").tenantId("t" + (i / 10 % 100)).payload(new byte[64])
                .sinks(0).build();
    }

    private static double direct(Path store) {
        try (Queue queue = OutboxFixture.queue(store)) {
            long start = System.nanoTime();
            List<CompletableFuture<Receipt>> receipts = new ArrayList<>(500);
            for (int i = 0; i < HOOKS; i++) {
                receipts.add(queue.ingest(hook(i), new IntakePosition("bench", i + 1), Duration.ofSeconds(5)));
                if (receipts.size() == 500) { // the relay's pass: a batch in flight, then wait for it
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
        try (Queue queue = OutboxFixture.queue(store);
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
        try (Queue queue = OutboxFixture.queue(store)) {
            Queue timed = (Queue) Proxy.newProxyInstance(Queue.class.getClassLoader(), new Class<?>[] {Queue.class},
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
            long[] committedAt = new long[COMMITS];
            try (OutboxRelay relay = OutboxRelay.builder(cluster.dataSource("bench-latency"), timed,
                    OutboxDialect.POSTGRESQL).takeoverDelay(Duration.ZERO).build().start();
                    Connection c = cluster.connect()) {
                await(Duration.ofSeconds(30), "the relay", () -> relay.stats().state() == RelayStats.State.RELAYING);
                c.setAutoCommit(false);
                // warm-up: the new store has no position, so the first pass waits at the ids of the
                // throughput phase (a gap) before it relays; measure from a relay that is caught up
                outbox.add(c, hook(HOOKS + COMMITS));
                c.commit();
                await(Duration.ofSeconds(30), "the warm-up receipt", () -> receivedAt.size() == 1);
                receivedAt.clear();
                for (int i = 0; i < COMMITS; i++) {
                    outbox.add(c, hook(HOOKS + i));
                    c.commit();
                    committedAt[i] = System.nanoTime();
                    Thread.sleep(5);
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

    private static double ms(long[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
    }
}
