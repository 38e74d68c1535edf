package io.ankusa.jdbc;

import io.ankusa.api.Receipt;
import io.ankusa.queue.Queue;
import io.ankusa.tests.postgres.UrlDataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The relay in a JVM of its own, for {@link RelayCrashTest}: opens the queue's store, relays the
 * table until it is killed, printing {@code ready} once and then its stats every 20 ms. Each
 * receipt reaches the relay up to 20 ms after the queue completed it, which widens the window
 * between a row's commit in the store and its delete from the table (where a kill must not cause
 * a second ingest).
 *
 * <p>With a fourth argument {@code hold}, the tenth receipt never reaches the relay: the child prints
 * {@code holding} once that hook is committed in the store, so a kill that follows lands between
 * the commit and the delete for certain, whatever the machine's speed.
 *
 * <p>Arguments: JDBC URL, table, store directory, and optionally {@code hold}.
 */
public final class RelayChild {

    private RelayChild() {
    }

    /**
     * Runs the relay until the process is killed.
     *
     * @param args the JDBC URL, the table and the store directory
     * @throws Exception when the relay cannot start
     */
    public static void main(String[] args) throws Exception {
        UrlDataSource dataSource = new UrlDataSource(args[0], "relay-child");
        Queue store = OutboxFixture.queue(Path.of(args[2]));
        boolean hold = args.length > 3 && args[3].equals("hold");
        AtomicInteger receipts = new AtomicInteger();
        Queue slowReceipts = (Queue) Proxy.newProxyInstance(Queue.class.getClassLoader(), new Class<?>[] {Queue.class},
                (proxy, method, margs) -> {
                    try {
                        Object result = method.invoke(store, margs);
                        if (method.getName().equals("ingest") && margs.length == 3) {
                            @SuppressWarnings("unchecked")
                            CompletableFuture<Receipt> receipt = (CompletableFuture<Receipt>) result;
                            if (hold && receipts.incrementAndGet() == 10) {
                                return receipt.thenCompose(r -> {
                                    System.out.println("holding");
                                    return new CompletableFuture<Receipt>();
                                });
                            }
                            return receipt.thenApplyAsync(r -> r, CompletableFuture.delayedExecutor(
                                    ThreadLocalRandom.current().nextInt(20), TimeUnit.MILLISECONDS));
                        }
                        return result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        OutboxRelay relay = OutboxRelay.builder(dataSource, slowReceipts, OutboxDialect.POSTGRESQL).table(args[1])
                .gapWait(Duration.ofSeconds(2)).takeoverDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .batchSize(25).build().start();
        System.out.println("ready");
        while (true) {
            RelayStats stats = relay.stats();
            System.out.println("stats " + stats.relayed() + " " + stats.skipped() + " " + stats.late() + " "
                    + stats.refused());
            Thread.sleep(20);
        }
    }
}
