package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.QueueConfig;
import io.ankusa.api.QueueStats;
import io.ankusa.queue.Queue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ankusa fixture}: the archives it writes unzip to stores that boot. The rows per tenant are
 * {@code io.ankusa.queue.fixtures.StoreFixtures}' tables (ankusa-tests checks them tenant by tenant).
 */
class FixtureCommandTest {

    @TempDir
    Path dir;

    private static void unzip(Path archive, Path target) throws IOException {
        Files.createDirectories(target);
        try (InputStream in = Files.newInputStream(archive); ZipInputStream zip = new ZipInputStream(in)) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                Path file = target.resolve(entry.getName()).normalize();
                assertThat(file.startsWith(target)).as(entry.getName()).isTrue();
                Files.createDirectories(file.getParent());
                Files.copy(zip, file);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void writesAFormatThreeArchiveThatOpensAsAQueue(String backend) throws IOException {
        Path out = dir.resolve("fixtures");

        CommandRun run = CommandRun.of("fixture", "--out", out.toString(), "--backend", backend);

        assertThat(run.exitCode()).as(run.err()).isZero();
        Path v2 = out.resolve("store-v2-" + backend + ".zip");
        Path v3 = out.resolve("store-v3-" + backend + ".zip");
        assertThat(run.out().lines()).hasSize(2).satisfiesExactly(
                line -> assertThat(line).startsWith("wrote " + v2 + " (").endsWith(" bytes)"),
                line -> assertThat(line).startsWith("wrote " + v3 + " (").endsWith(" bytes)"));
        assertThat(v2).isRegularFile();
        assertThat(v3).isRegularFile();
        Path store = dir.resolve("v3");
        unzip(v3, store);
        // Boot moves the two inflight rows back to pending.
        try (Queue queue = Queue.open(QueueConfig.builder(store).backend(backend).build())) {
            QueueStats stats = queue.stats();
            assertThat(stats).isEqualTo(new QueueStats(6 + 2, 3, 0, 6, stats.bytes(), 15));
            assertThat(stats.bytes()).isPositive();
            assertThat(queue.tenantCount()).isEqualTo(4);
            assertThat(queue.deadForTenant("initech").dead()).isEqualTo(4);
            assertThat(queue.pendingForTenant("initech").pending()).isZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void theFormatTwoArchiveIsRefusedByStatsAndMigrates(String backend) throws IOException {
        Path out = dir.resolve("fixtures");
        assertThat(CommandRun.of("fixture", "--out", out.toString(), "--backend", backend).exitCode()).isZero();
        Path store = dir.resolve("v2");
        unzip(out.resolve("store-v2-" + backend + ".zip"), store);
        String[] where = {"--store", store.toString(), "--backend", backend};

        CommandRun refused = CommandRun.of(args("stats", where));
        CommandRun migrate = CommandRun.of(args("migrate", where));
        CommandRun stats = CommandRun.of(args("stats", where));

        assertThat(refused.exitCode()).isEqualTo(ExitCode.NEEDS_MIGRATION.code());
        assertThat(refused.errLines()).singleElement().asString().contains("is at format 2", "ankusa migrate");
        assertThat(migrate.exitCode()).as(migrate.err()).isZero();
        assertThat(migrate.out()).contains("migrated 2 -> 3: ", "is at the current format (29 rows migrated)");
        assertThat(stats.exitCode()).as(stats.err()).isZero();
        assertThat(stats.out()).containsPattern("(?m)^tenants\\s+5$").containsPattern("(?m)^inflight\\s+0$")
                .containsPattern("(?m)^dead\\s+7$").containsPattern("(?m)^archive pending\\s+9$");
        // 11 first attempts (inflight rows back to due) and 2 retries due an hour after the fixtures' clock:
        // which of them count as pending or scheduled depends on today's date.
        assertThat(number(stats.out(), "pending") + number(stats.out(), "scheduled")).isEqualTo(11 + 2);
    }

    @Test
    void refusesToReplaceAnArchive() throws IOException {
        Path out = Files.createDirectories(dir.resolve("fixtures"));
        Path taken = Files.writeString(out.resolve("store-v3-rocksdb.zip"), "mine");

        CommandRun run = CommandRun.of("fixture", "--out", out.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCode.TARGET_EXISTS.code());
        assertThat(run.errLines()).containsExactly("ankusa: fixture archive " + taken + " exists");
        assertThat(Files.readString(taken)).isEqualTo("mine");
        assertThat(out.resolve("store-v2-rocksdb.zip")).doesNotExist();
    }

    private static long number(String text, String label) {
        Matcher m = Pattern.compile("(?m)^" + label + "\\s+([0-9,]+)$").matcher(text);
        assertThat(m.find()).as("a '%s' row in%n%s", label, text).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    private static String[] args(String command, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = command;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
