package io.ankusa.bench;

import io.ankusa.api.EndpointSettings;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import io.ankusa.queue.migration.Migrations;
import io.ankusa.store.Cursor;
import io.ankusa.store.Direction;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.WriteBatch;
import io.ankusa.tests.queue.TestQueue;
import io.ankusa.tests.support.ForwardingStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store calls the dispatch tick makes per delivery while a started pipeline (its defaults,
 * a no-op sink) drains a backlog: due-range seeks, other scans, multi-gets and their keys, gets,
 * iterators or read transactions opened (a scan each, one per store cursor),
 * commits. Unlike a rate, these do not depend on the machine's load, so an A/B of two builds
 * (each build's classes on the class path) says what a change took off the tick. Not a test:
 * run it on its own, after {@code test-compile}:
 *
 * <pre>
 * java -cp &lt;test class path&gt; io.ankusa.bench.TickStoreCalls [backend] [tenants] [hooks] [dir]
 * </pre>
 *
 * Defaults: rocksdb, 10 000 tenants (round robin), 20 000 hooks of 256 B, the temporary directory.
 */
public final class TickStoreCalls {

    private TickStoreCalls() {
    }

    /** What the tick thread asked of the store. */
    private static final class Counts {
        final AtomicLong dueScans = new AtomicLong();
        final AtomicLong otherScans = new AtomicLong();
        final AtomicLong multiGets = new AtomicLong();
        final AtomicLong keys = new AtomicLong();
        final AtomicLong gets = new AtomicLong();
        final AtomicLong commits = new AtomicLong();
        final AtomicLong readers = new AtomicLong();
        final AtomicLong cursorSeeks = new AtomicLong();
        volatile boolean on;

        boolean counting() {
            return on && Thread.currentThread().getName().contains("dispatch-tick");
        }
    }

    /** Counts the tick thread's calls while {@link Counts#on}. */
    private static final class CountingStore extends ForwardingStore {
        private final Counts counts;

        CountingStore(Store delegate, Counts counts) {
            super(delegate);
            this.counts = counts;
        }

        @Override
        public Scan scan(String family, KeyRange range, Direction direction) {
            if (counts.counting()) {
                boolean due = range.from().length > 0 && range.from()[0] == 'D';
                (due ? counts.dueScans : counts.otherScans).incrementAndGet();
            }
            return super.scan(family, range, direction);
        }

        @Override
        public Cursor cursor(String family) {
            if (counts.counting()) {
                counts.readers.incrementAndGet();
            }
            Cursor cursor = delegate().cursor(family);
            return new Cursor() {
                @Override
                public Scan seek(KeyRange range) {
                    if (counts.counting()) {
                        boolean due = range.from().length > 0 && range.from()[0] == 'D';
                        (due ? counts.dueScans : counts.otherScans).incrementAndGet();
                        counts.cursorSeeks.incrementAndGet();
                    }
                    return cursor.seek(range);
                }

                @Override
                public void close() {
                    cursor.close();
                }
            };
        }

        @Override
        public List<Optional<byte[]>> multiGet(String family, List<byte[]> keys) {
            if (counts.counting()) {
                counts.multiGets.incrementAndGet();
                counts.keys.addAndGet(keys.size());
            }
            return super.multiGet(family, keys);
        }

        @Override
        public Optional<byte[]> get(String family, byte[] key) {
            if (counts.counting()) {
                counts.gets.incrementAndGet();
            }
            return super.get(family, key);
        }

        @Override
        public void commit(WriteBatch batch, Durability durability) {
            if (counts.counting()) {
                counts.commits.incrementAndGet();
            }
            super.commit(batch, durability);
        }
    }

    /**
     * Runs one drain and prints the tick thread's store calls per 1 000 deliveries.
     *
     * @param args backend, tenants, hooks, directory (all optional)
     * @throws Exception when the queue fails
     */
    public static void main(String[] args) throws Exception {
        String backend = args.length > 0 ? args[0] : "rocksdb";
        int tenants = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int hooks = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
        Path root = Path.of(args.length > 3 ? args[3] : System.getProperty("java.io.tmpdir"));
        Path dir = Files.createTempDirectory(Files.createDirectories(root), "tick-calls-");
        Counts counts = new Counts();
        QueueConfig config = QueueConfig.builder(dir).backend(backend)
                .endpoints(EndpointSettings.DEFAULTS.withMaxConcurrency(Integer.MAX_VALUE)).build();
        try (Queue queue = TestQueue.open(config, Migrations.NONE, store -> new CountingStore(store, counts))) {
            byte[] body = new byte[256];
            List<CompletableFuture<?>> pending = new ArrayList<>();
            for (int i = 0; i < hooks; i++) {
                pending.add(queue.ingest(Hook.builder().id("h" + i).sourceId("bench").tenantId("tenant-" + (i % tenants))
                        .payload(body).sinks(0).build()));
                if (pending.size() == 4_096 || i == hooks - 1) {
                    CompletableFuture.allOf(pending.toArray(CompletableFuture<?>[]::new)).join();
                    pending.clear();
                }
            }
            counts.on = true;
            try (Pipeline pipeline = Pipeline.builder(queue, d -> CompletableFuture.completedFuture(SinkOutcome.delivered()))
                    .manual()) {
                pipeline.start();
                while (queue.stats().bytes() != 0) {
                    Thread.sleep(2);
                }
            }
            counts.on = false;
        }
        double per = 1_000.0 / hooks;
        System.out.printf(Locale.ROOT, "%s, %,d tenants, %,d deliveries; the tick thread per 1 000 deliveries: due-range"
                + " seeks %.1f, other scans %.1f, multi-gets %.1f (%.0f keys), gets %.1f, commits %.1f; iterators or read"
                + " transactions opened %.1f%n", backend, tenants,
                hooks, counts.dueScans.get() * per, counts.otherScans.get() * per, counts.multiGets.get() * per,
                counts.keys.get() * per, counts.gets.get() * per, counts.commits.get() * per,
                (counts.dueScans.get() + counts.otherScans.get() - counts.cursorSeeks.get() + counts.readers.get()) * per);
    }
}
