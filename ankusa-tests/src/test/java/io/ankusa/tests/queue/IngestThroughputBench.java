package io.ankusa.tests.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.queue.Queue;
import io.ankusa.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Synced ingest throughput (hooks per second) on both backends, with one tenant and with 10 000
 * tenants (every tenant seen once before the measurement, so the writer's cache is warm). Not part
 * of the default build:
 *
 * <pre>
 * ./mvnw -B verify -pl ankusa-tests -am -Dankusa.bench=true -Dtest=IngestThroughputBench -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * Options: {@code -Dankusa.bench.hooks=N} (default 100 000), {@code -Dankusa.bench.producers=N}
 * (default 4), {@code -Dankusa.bench.inflight=N} (hooks awaiting their receipt, default 8 192; 1 with one
 * producer measures one synced commit per hook), {@code -Dankusa.bench.payload=BYTES} (default 256). Each hook has one sink. Prints
 * a table; asserts only that every hook was acknowledged and counted.
 */
@Tag("bench")
@EnabledIfSystemProperty(named = "ankusa.bench", matches = "true")
class IngestThroughputBench {

    /** Hooks ingested before measuring: every tenant once, and the same JIT warm-up for both cells. */
    private static final int WARM_UP = 10_000;

    @TempDir
    Path dir;

    @Test
    void syncedIngestThroughput() throws Exception {
        int hooks = Integer.getInteger("ankusa.bench.hooks", 100_000);
        int producers = Integer.getInteger("ankusa.bench.producers", 4);
        int payload = Integer.getInteger("ankusa.bench.payload", 256);
        int inFlight = Integer.getInteger("ankusa.bench.inflight", 8_192);
        List<String> rows = new ArrayList<>();
        rows.add(String.format(Locale.ROOT, "%-8s %8s %8s %10s %12s", "backend", "tenants", "hooks", "seconds", "hooks/s"));
        System.out.println("synced ingest, " + producers + " producers, at most " + inFlight + " hooks in flight, " + payload
                + " B payload, 1 sink, batch <= 256 hooks");
        System.out.println(rows.get(0));
        for (String backend : Backends.names().filter(b -> Stores.provider(b).isPresent()).toList()) {
            for (int tenants : new int[] {1, 10_000}) {
                double seconds = run(backend, tenants, hooks, producers, payload, inFlight);
                System.out.println(String.format(Locale.ROOT, "%-8s %8d %8d %10.2f %12.0f", backend, tenants, hooks, seconds,
                        hooks / seconds));
            }
        }
    }

    private double run(String backend, int tenants, int hooks, int producers, int payload, int limit) throws Exception {
        Path store = Files.createTempDirectory(dir, backend + "-" + tenants);
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend).build())) {
            byte[] body = new byte[payload];
            List<CompletableFuture<?>> warm = new ArrayList<>();
            for (int t = 0; t < WARM_UP; t++) {
                warm.add(queue.ingest(hook("w" + t, t % tenants, body)));
            }
            CompletableFuture.allOf(warm.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.MINUTES);
            Semaphore inFlight = new Semaphore(limit);
            AtomicLong next = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(producers);
            long start = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                running.add(pool.submit(() -> {
                    long i;
                    while ((i = next.getAndIncrement()) < hooks) {
                        inFlight.acquireUninterruptibly();
                        queue.ingest(hook("h" + i, (int) (i % tenants), body))
                                .whenComplete((r, e) -> inFlight.release());
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            inFlight.acquire(limit);
            double seconds = (System.nanoTime() - start) / 1e9;
            pool.shutdown();
            long expected = WARM_UP + (long) hooks;
            assertThat(queue.stats().pending()).isEqualTo(expected);
            assertThat(queue.tenantCount()).isEqualTo(tenants);
            return seconds;
        }
    }

    private static Hook hook(String id, int tenant, byte[] body) {
        return Hook.builder().id(id).sourceId("bench").tenantId("tenant-" + tenant).payload(body).sinks(0).build();
    }
}
