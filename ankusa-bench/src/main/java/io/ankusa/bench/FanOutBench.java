package io.ankusa.bench;

import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The fan-out bench: synced ingest of hooks with an event type that the ingest writer fans out to
 * 1, 5 and 20 registered endpoints of their tenant, against hooks naming one sink, on rocksdb and
 * lmdb. A cell's figures are hooks per second, delivery rows written per second and the writer
 * thread's CPU time per row. The rule: a fan-out row costs no more than a hook — the rows per
 * second of the 5- and 20-endpoint cells are at least the hooks per second of the 1-endpoint cell
 * — and the bench exits non-zero when it does not hold, or when a hook was refused, written for
 * the wrong number of endpoints or left uncounted.
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests -Dankusa.bench.only=FanOutBench
 * </pre>
 *
 * <p>System properties: {@code ankusa.bench.fanoutHooks} (hooks per cell, default 20 000),
 * {@code ankusa.bench.backends} (default, or empty: {@code rocksdb,lmdb}), {@code ankusa.bench.dir}.
 * One tenant, 256-byte payloads, up to 8 192 hooks in flight from one producer; 2 000 hooks of
 * warm-up per cell. The tenant's 20 endpoints subscribe to {@code fan.20}, the first five also
 * to {@code fan.5} and the first also to {@code fan.1}, so each cell's hooks fan out to exactly
 * 1, 5 or 20 of them; the {@code sinks} cell's hooks name sink 0 and no event type. Per backend
 * one 1-endpoint cell runs first, not counted, so the JIT warms on it.
 */
public final class FanOutBench {

    private static final int PAYLOAD = 256;
    private static final int IN_FLIGHT = 8_192;
    private static final int WARM_UP = 2_000;
    private static final int ENDPOINTS = 20;
    private static final String TENANT = "acme";

    private FanOutBench() {
    }

    /** One cell: {@code fanOut} endpoints per hook, 0 for hooks naming one sink. */
    private record Cell(String backend, int fanOut, int hooks, double seconds, long writerCpuNanos) {

        long rows() {
            return (long) hooks * Math.max(1, fanOut);
        }

        double hooksPerSecond() {
            return hooks / seconds;
        }

        double rowsPerSecond() {
            return rows() / seconds;
        }

        double writerCpuMicrosPerRow() {
            return writerCpuNanos / 1e3 / rows();
        }

        String shape() {
            return fanOut == 0 ? "1 sink, no event type"
                    : "event type, " + fanOut + " endpoint" + (fanOut > 1 ? "s" : "");
        }
    }

    /** Runs the bench; see the class comment for the properties. */
    public static void main(String[] args) throws Exception {
        int hooks = Integer.getInteger("ankusa.bench.fanoutHooks", 20_000);
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir",
                System.getProperty("java.io.tmpdir"))));
        // The bench profile passes an empty ankusa.bench.backends when the command names none: both then.
        List<String> chosen = Arrays.stream(System.getProperty("ankusa.bench.backends", "").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        List<String> failures = new ArrayList<>();
        List<Cell> cells = new ArrayList<>();
        for (String backend : chosen.isEmpty() ? List.of("rocksdb", "lmdb") : chosen) {
            // One cell first, not counted: the JVM's JIT warms on it, not on the first measured cell.
            run(root, backend, 1, hooks, failures);
            for (int fanOut : new int[] {0, 1, 5, 20}) {
                cells.add(run(root, backend, fanOut, hooks, failures));
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Fan-out bench: synced, %d B payload, one tenant with %d endpoints, up to %,d "
                + "hooks in flight, %,d hooks a cell, Java %s%n%n", PAYLOAD, ENDPOINTS, IN_FLIGHT, hooks,
                System.getProperty("java.version"));
        System.out.println("| backend | hooks | hooks/s | delivery rows/s | writer CPU µs/row "
                + "| rows/s ÷ 1-endpoint hooks/s |");
        System.out.println("|---|---|---:|---:|---:|---:|");
        for (Cell c : cells.stream().sorted(Comparator.comparing(Cell::backend).thenComparing(Cell::fanOut)).toList()) {
            Cell one = single(cells, c.backend());
            System.out.printf(Locale.ROOT, "| %s | %s | %,.0f | %,.0f | %.2f | %.2f |%n", c.backend(), c.shape(),
                    c.hooksPerSecond(), c.rowsPerSecond(), c.writerCpuMicrosPerRow(),
                    c.rowsPerSecond() / one.hooksPerSecond());
        }
        System.out.println();
        for (Cell c : cells) {
            if (c.fanOut() > 1) {
                Cell one = single(cells, c.backend());
                boolean holds = c.rowsPerSecond() >= one.hooksPerSecond();
                System.out.printf(Locale.ROOT, "rule %s %d endpoints: a fan-out row costs no more than a hook "
                        + "(%,.0f rows/s >= %,.0f hooks/s): %s%n", c.backend(), c.fanOut(), c.rowsPerSecond(),
                        one.hooksPerSecond(), holds ? "holds" : "FAILS");
                if (!holds) {
                    failures.add(c + ": " + c.rowsPerSecond() + " rows/s under " + one.hooksPerSecond() + " hooks/s");
                }
            }
        }
        if (!failures.isEmpty()) {
            failures.forEach(f -> System.out.println("FAILED: " + f));
            System.exit(1);
        }
    }

    private static Cell single(List<Cell> cells, String backend) {
        return cells.stream().filter(c -> c.backend().equals(backend) && c.fanOut() == 1).findFirst().orElseThrow();
    }

    private static Hook hook(String id, int fanOut, byte[] body) {
        Hook.Builder b = Hook.builder().id(id).sourceId("bench").tenantId(TENANT).payload(body);
        return (fanOut == 0 ? b.sinks(0) : b.eventType("fan." + fanOut)).build();
    }

    private static Cell run(Path root, String backend, int fanOut, int hooks, List<String> failures)
            throws Exception {
        Path dir = Files.createTempDirectory(root, "fanout-" + backend + "-");
        try (Queue queue = Queue.open(QueueConfig.builder(dir).backend(backend).build())) {
            EndpointRegistry registry = queue.endpointRegistry();
            for (int i = 0; i < ENDPOINTS; i++) {
                List<String> types = new ArrayList<>(List.of("fan.20"));
                if (i < 5) {
                    types.add("fan.5");
                }
                if (i < 1) {
                    types.add("fan.1");
                }
                registry.add(TENANT, EndpointSpec.of(URI.create("https://e" + i + ".example/hooks"))
                        .withEventTypes(types));
            }
            byte[] body = new byte[PAYLOAD];
            List<CompletableFuture<Receipt>> warm = new ArrayList<>();
            for (int i = 0; i < WARM_UP; i++) {
                warm.add(queue.ingest(hook("w" + i, fanOut, body)));
            }
            CompletableFuture.allOf(warm.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.MINUTES);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long writer = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("ankusa-ingest-writer")).findFirst().orElseThrow().getId();
            long cpuBefore = threads.getThreadCpuTime(writer);
            Semaphore inFlight = new Semaphore(IN_FLIGHT);
            AtomicLong wrong = new AtomicLong();
            int expectedSinks = Math.max(1, fanOut);
            long start = System.nanoTime();
            for (int i = 0; i < hooks; i++) {
                inFlight.acquireUninterruptibly();
                queue.ingest(hook("h" + i, fanOut, body)).whenComplete((r, e) -> {
                    if (e != null || r.sinks().orElseThrow().size() != expectedSinks) {
                        wrong.incrementAndGet();
                    }
                    inFlight.release();
                });
            }
            inFlight.acquire(IN_FLIGHT);
            double seconds = (System.nanoTime() - start) / 1e9;
            long writerCpu = threads.getThreadCpuTime(writer) - cpuBefore;
            Cell cell = new Cell(backend, fanOut, hooks, seconds, writerCpu);
            long expectedRows = (long) (WARM_UP + hooks) * expectedSinks;
            if (wrong.get() != 0 || queue.stats().pending() != expectedRows) {
                failures.add(cell + ": " + wrong.get() + " refused or misrouted, pending " + queue.stats().pending()
                        + " of " + expectedRows);
            }
            return cell;
        } finally {
            delete(dir);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
