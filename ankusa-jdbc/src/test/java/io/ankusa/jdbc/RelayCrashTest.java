package io.ankusa.jdbc;

import static io.ankusa.jdbc.OutboxFixture.assertOutboxEmpty;
import static io.ankusa.jdbc.OutboxFixture.await;
import static io.ankusa.jdbc.OutboxFixture.count;
import static io.ankusa.jdbc.OutboxFixture.hook;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueStats;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.queue.Queue;
import io.ankusa.tests.postgres.PostgresCluster;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay in a child JVM, killed with SIGKILL at random moments while the application keeps
 * committing (and rolling back) rows: after every round the next relay starts on the same store,
 * and at the end every committed row is in the store exactly once and no rolled-back row is. Every
 * other round kills the child once a hook is committed and its receipt held back from the relay, so
 * the window between the store's commit and the table's delete is hit in every run.
 */
class RelayCrashTest {

    private static final int ROUNDS = 6;
    private static final String TABLE = "crash_outbox";

    private static PostgresCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void startPostgres() throws Exception {
        cluster = PostgresCluster.start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @SuppressWarnings("try") // the pipeline delivers while the test waits; the test only closes it
    void aRelayKilledBetweenIngestAndDeleteIngestsNothingTwice() throws Exception {
        long seed = Long.getLong("ankusa.jdbc.seed", System.nanoTime());
        Random random = new Random(seed);
        AnkusaOutbox outbox = AnkusaOutbox.builder(OutboxDialect.POSTGRESQL).table(TABLE).build();
        try (Connection c = cluster.connect()) {
            outbox.createTables(c);
        }
        Set<String> committed = ConcurrentHashMap.newKeySet();
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread writer = new Thread(() -> write(outbox, committed, writing, new Random(seed + 1)), "outbox-writer");
        writer.start();
        Path store = dir.resolve("store");
        long skipped = 0;
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Path out = dir.resolve("child-" + round + ".out");
                boolean hold = round % 2 == 0;
                Process child = startChild(store, out, dir.resolve("child-" + round + ".err"), hold);
                await(Duration.ofSeconds(60), "child " + round + " ready", () -> lines(out).contains("ready"));
                if (hold) {
                    await(Duration.ofSeconds(60), "child " + round + " holding a receipt",
                            () -> lines(out).contains("holding"));
                } else {
                    Thread.sleep(300 + random.nextInt(1200)); // a kill at a random moment, not a wait
                }
                child.destroyForcibly();
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child died").isTrue();
                List<String> lines = lines(out);
                // the last whole stats line: a kill can cut the final line short
                String last = lines.stream().filter(l -> l.matches("stats \\d+ \\d+ \\d+ \\d+"))
                        .reduce((a, b) -> b).orElseThrow();
                skipped += Long.parseLong(last.split(" ")[2]);
            }
        } finally {
            writing.set(false);
            writer.join();
        }

        List<Delivery> deliveries = OutboxFixture.deliveries();
        Set<String> late;
        Set<String> relayed = new HashSet<>(committed);
        try (Queue queue = OutboxFixture.queue(store)) {
            try (OutboxRelay relay = OutboxRelay.builder(cluster.dataSource("final-relay"), queue,
                    OutboxDialect.POSTGRESQL).table(TABLE).gapWait(Duration.ofSeconds(2))
                    .takeoverDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).build().start()) {
                await(Duration.ofSeconds(60), "the backlog relayed", () -> tableEmpty());
                skipped += relay.stats().skipped();
            }
            // a writer's transaction that outlasted the gap wait on a loaded machine is moved
            // aside as late_commit, never ingested: it counts as not relayed, and never as lost
            late = refused("late_commit");
            assertThat(refused("")).as("rows refused otherwise").isEqualTo(late);
            relayed.removeAll(late);
            assertThat(late).as("late rows are committed rows").isSubsetOf(committed);
            QueueStats stats = queue.stats();
            assertThat(stats.pending()).as("hooks in the store (seed " + seed + ")").isEqualTo(relayed.size());
            try (Pipeline pipeline = OutboxFixture.recording(queue, deliveries)) {
                await(Duration.ofSeconds(60), "every hook delivered", () -> deliveries.size() >= relayed.size()
                        && queue.stats().pending() == 0);
            }
            assertThat(queue.stats().pending() + queue.stats().inflight() + queue.stats().scheduled()).isZero();
        }
        Map<String, Long> times = deliveries.stream()
                .collect(Collectors.groupingBy(Delivery::hookId, Collectors.counting()));
        assertThat(times.keySet()).as("delivered hooks (seed " + seed + ")").isEqualTo(relayed);
        assertThat(times.values().stream().filter(n -> n > 1)).as("hooks ingested twice (seed " + seed + ")").isEmpty();
        assertThat(skipped).as("rows the next relay found relayed but not deleted: kills between ingest and delete")
                .isPositive();
        System.out.printf("RelayCrashTest: seed %d, %d rounds, %d rows committed, %d found relayed but not deleted,"
                + " %d late%n", seed, ROUNDS, committed.size(), skipped, late.size());
    }

    /** Hook ids in the refused table with {@code error}, or with any error when it is empty. */
    private static Set<String> refused(String error) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection c = cluster.connect(); var select = c.prepareStatement(
                "SELECT hook_id FROM " + TABLE + "_refused WHERE error = ? OR ? = ''")) {
            select.setString(1, error);
            select.setString(2, error);
            try (var rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
        }
        return ids;
    }

    private static boolean tableEmpty() {
        try (Connection c = cluster.connect()) {
            return count(c, "SELECT count(*) FROM " + TABLE) == 0;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** Commits one to three rows per transaction, rolling back about one transaction in ten. */
    private static void write(AnkusaOutbox outbox, Set<String> committed, AtomicBoolean writing, Random random) {
        int n = 0;
        try (Connection c = cluster.connect()) {
            c.setAutoCommit(false);
            while (writing.get()) {
                List<String> ids = new ArrayList<>();
                for (int i = 1 + random.nextInt(3); i > 0; i--) {
                    String id = "ord_" + n++;
                    outbox.add(c, hook(id));
                    ids.add(id);
                }
                if (random.nextInt(10) == 0) {
                    c.rollback();
                } else {
                    c.commit();
                    committed.addAll(ids);
                }
                Thread.sleep(2);
            }
        } catch (Exception e) {
            throw new AssertionError("the writer failed", e);
        }
    }

    private Process startChild(Path store, Path out, Path err, boolean hold) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log"));
        command.add("-cp");
        command.add(classPath());
        command.add(RelayChild.class.getName());
        command.addAll(List.of(cluster.url(), TABLE, store.toString()));
        if (hold) {
            command.add("hold");
        }
        return new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    }

    /** This JVM's module path and class path as one class path: the child needs no module flags. */
    private static String classPath() {
        List<String> entries = new ArrayList<>();
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            String value = System.getProperty(property, "");
            if (!value.isEmpty()) {
                entries.add(value);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .filter(l -> !l.isBlank()).map(Function.identity()).toList() : List.of();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
