package io.ankusa.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** What the outbox tests share: queues, hooks, counting rows, waiting for a condition, a recording sink. */
final class OutboxFixture {

    private OutboxFixture() {
    }

    static Queue queue(Path directory) {
        return Queue.open(QueueConfig.builder(directory).backend("rocksdb").build());
    }

    static Queue queue(Path directory, long tenantsMax) {
        return Queue.open(QueueConfig.builder(directory).backend("rocksdb").tenantsMax(tenantsMax).build());
    }

    static Hook hook(String id) {
        return Hook.builder().id(id).sourceId("orders").tenantId("acme").header("content-type", "application/json")
                .payload("{\"order\":\"" + id + "\"}").sinks(0).build();
    }

    static Hook hook(String id, String tenant) {
        return Hook.builder().id(id).sourceId("orders").tenantId(tenant).payload("{}").sinks(0).build();
    }

    static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Waits up to {@code timeout} for {@code condition}; fails with {@code what} otherwise. */
    static void await(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    /** A pipeline over {@code queue} whose sink records every delivery and reports it delivered. */
    static Pipeline recording(Queue queue, List<Delivery> deliveries) {
        return Pipeline.builder(queue, d -> {
            deliveries.add(d);
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        }).tickInterval(Duration.ofMillis(5)).start();
    }

    static List<Delivery> deliveries() {
        return new CopyOnWriteArrayList<>();
    }

    /**
     * {@code queue} with every three-argument {@code ingest} (the relay's) reported to
     * {@code onIngest} before it is forwarded.
     */
    static Queue observed(Queue queue, Consumer<Hook> onIngest) {
        return (Queue) Proxy.newProxyInstance(Queue.class.getClassLoader(), new Class<?>[] {Queue.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("ingest") && args != null && args.length == 3) {
                        onIngest.accept((Hook) args[0]);
                    }
                    try {
                        return method.invoke(queue, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    static void assertOutboxEmpty(Connection c, String table) throws SQLException {
        assertThat(count(c, "SELECT count(*) FROM " + table)).as("rows left in " + table).isZero();
    }
}
