package io.ankusa.bench.operator;

import io.ankusa.api.DeadLetterQuery;
import io.ankusa.api.PurgeKind;
import io.ankusa.api.PurgeResult;
import io.ankusa.api.QueueConfig;
import io.ankusa.api.Receipt;
import io.ankusa.queue.Queue;
import io.ankusa.queue.ledger.DeliveryLedger;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.LedgerSource;
import io.ankusa.queue.ledger.Settlement;
import io.ankusa.queue.ledger.TenantDirectory;
import io.ankusa.tests.queue.QueueUnderTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The operator bench: what a dead-letter page costs as the DLQ grows, and how fast a purge runs.
 *
 * <p>One tenant ({@code target}) holds 200 dead letters throughout; 1 000 other tenants hold
 * 10^3, then 10^5 dead letters. A cell is the median of 300 reads of a 50-letter page: the
 * target's page (one {@code ?X} range) and the node's first page (the newest of {@code ?x}).
 * Then a purge of a tenant with 20 000 due rows (synced chunks of 500). Prints a Markdown table;
 * exits non-zero when the target's page at 10^5 costs more than twice what it costs at 10^3
 * (each counted as at least 1 ms): the cost must be the page, not the DLQ.
 *
 * <pre>
 * ./mvnw -B -Pbench verify -pl ankusa-bench -am -DskipTests
 * </pre>
 */
public final class OperatorBench {

    private static final int OTHER_TENANTS = 1_000;
    private static final int TARGET_DEAD = 200;
    private static final int PAGE = 50;
    private static final int READS = 300;

    private OperatorBench() {
    }

    /** Runs the bench on both backends (or {@code -Dankusa.bench.backends=rocksdb}). */
    public static void main(String[] args) throws Exception {
        Path root = Files.createDirectories(Path.of(System.getProperty("ankusa.bench.dir", "target/bench")))
                .resolve("operator-" + System.nanoTime());
        String only = System.getProperty("ankusa.bench.backends", "");
        List<String> backends = only.isBlank() ? List.of("rocksdb", "lmdb") : Arrays.asList(only.split(","));
        StringBuilder table = new StringBuilder("| backend | other dead letters | tenant page p50 ms | node page p50 ms |\n|---|---|---|---|\n");
        StringBuilder purges = new StringBuilder("| backend | rows purged | seconds | rows/s |\n|---|---|---|---|\n");
        boolean failed = false;
        for (String backend : backends) {
            QueueConfig config = QueueConfig.builder(root.resolve(backend)).backend(backend)
                    .housekeepingInterval(Duration.ZERO).build();
            try (Queue queue = Queue.open(config)) {
                DeliveryLedger ledger = LedgerSource.of(queue).deliveryLedger();
                deadLetters(queue, ledger, Stream.generate(() -> "target"), TARGET_DEAD);
                deadLetters(queue, ledger, others(), 1_000);
                double[] small = cell(queue);
                table.append(row(backend, 1_000, small));
                deadLetters(queue, ledger, others(), 99_000);
                double[] large = cell(queue);
                table.append(row(backend, 100_000, large));
                if (Math.max(1, large[0]) > 2 * Math.max(1, small[0])) {
                    failed = true;
                    System.err.println(backend + ": the tenant page grew with the DLQ: " + small[0] + " ms -> " + large[0] + " ms");
                }
                ingest(queue, Stream.generate(() -> "purged").limit(10_000).toList(), 2);
                long start = System.nanoTime();
                PurgeResult result = queue.purgeTenant("purged", Set.of(PurgeKind.PENDING));
                double seconds = (System.nanoTime() - start) / 1e9;
                purges.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.0f |%n", backend, result.deliveries(), seconds,
                        result.deliveries() / seconds));
            }
        }
        System.out.println(table);
        System.out.println(purges);
        if (failed) {
            System.exit(1);
        }
    }

    private static Stream<String> others() {
        return Stream.iterate(0, i -> i + 1).map(i -> "t" + (i % OTHER_TENANTS));
    }

    /** Ingests {@code count} hooks over {@code tenants} and dead-letters them all. */
    private static void deadLetters(Queue queue, DeliveryLedger ledger, Stream<String> tenants, int count) {
        List<String> names = tenants.limit(count).toList();
        ingest(queue, names, 1);
        for (String tenant : names.stream().distinct().toList()) {
            long ord = LedgerSource.of(queue).tenantDirectory().ord(tenant).orElseThrow();
            List<DueRow> due;
            while (!(due = ledger.dueForTenant(ord, System.currentTimeMillis(), 0, 1_000, Long.MAX_VALUE)).isEmpty()) {
                ledger.settle(ledger.claim(ord, due).claimed().stream()
                        .<Settlement>map(d -> new Settlement.Dead(d, "HTTP 410")).toList());
            }
        }
    }

    private static void ingest(Queue queue, List<String> tenants, int sinks) {
        List<CompletableFuture<Receipt>> futures = new ArrayList<>();
        int[] sinkNumbers = new int[sinks];
        for (int i = 0; i < sinks; i++) {
            sinkNumbers[i] = i;
        }
        for (int i = 0; i < tenants.size(); i++) {
            futures.add(queue.ingest(QueueUnderTest.hook("h" + System.nanoTime() + "-" + i, tenants.get(i), sinkNumbers)));
            if (futures.size() == 20_000) {
                futures.forEach(QueueUnderTest::await);
                futures.clear();
            }
        }
        futures.forEach(QueueUnderTest::await);
    }

    /** Median milliseconds of the target's page and of the node's first page. */
    private static double[] cell(Queue queue) {
        double[] tenant = new double[READS];
        double[] node = new double[READS];
        for (int i = 0; i < READS; i++) {
            long t0 = System.nanoTime();
            if (queue.deadLetters(DeadLetterQuery.tenants("target").limit(PAGE)).letters().size() != PAGE) {
                throw new AssertionError("short tenant page");
            }
            long t1 = System.nanoTime();
            if (queue.deadLetters(DeadLetterQuery.all().limit(PAGE)).letters().size() != PAGE) {
                throw new AssertionError("short node page");
            }
            long t2 = System.nanoTime();
            tenant[i] = (t1 - t0) / 1e6;
            node[i] = (t2 - t1) / 1e6;
        }
        Arrays.sort(tenant);
        Arrays.sort(node);
        return new double[] {tenant[READS / 2], node[READS / 2]};
    }

    private static String row(String backend, int others, double[] cell) {
        return String.format(Locale.ROOT, "| %s | %d | %.3f | %.3f |%n", backend, others, cell[0], cell[1]);
    }
}
