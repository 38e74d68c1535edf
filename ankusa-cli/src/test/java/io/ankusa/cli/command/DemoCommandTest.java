package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A small demo end to end: ingest, the pipeline against the simulated receiver, the table. */
class DemoCommandTest {

    @TempDir
    Path dir;

    private static long number(String text, String label) {
        Matcher m = Pattern.compile("(?m)^" + label + "\\s+([0-9,]+)").matcher(text);
        assertThat(m.find()).as("a '%s' row in%n%s", label, text).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void everyHookEndsDeliveredOrDeadAndTheTableSaysSo(String backend) {
        Path store = dir.resolve("demo");

        CommandRun run = CommandRun.of("demo", "--store", store.toString(), "--backend", backend,
                "--hooks", "3000", "--tenants", "40", "--fail-rate", "0.2", "--permanent-share", "0.3");

        assertThat(run.exitCode()).as(run.err()).isZero();
        long delivered = number(run.out(), "delivered");
        long dead = number(run.out(), "dead");
        assertThat(delivered + dead).isEqualTo(3000);
        assertThat(dead).isPositive();
        assertThat(number(run.out(), "retried")).isPositive();
        assertThat(number(run.out(), "left")).isZero();
        assertThat(run.out()).contains("Top tenants by backlog after ingest").containsPattern("(?m)^tenant-00\\s+[0-9,]+");

        CommandRun stats = CommandRun.of("stats", "--store", store.toString(), "--backend", backend);
        assertThat(number(stats.out(), "dead")).isEqualTo(dead);
        assertThat(number(stats.out(), "pending") + number(stats.out(), "scheduled") + number(stats.out(), "inflight")).isZero();
        assertThat(stats.out()).containsPattern("(?m)^oldest due\\s+nothing due$");
    }

    @Test
    void aSecondDemoReplacesTheFirstsStore() {
        Path store = dir.resolve("demo");
        assertThat(CommandRun.of("demo", "--store", store.toString(), "--hooks", "200", "--tenants", "5").exitCode()).isZero();

        CommandRun again = CommandRun.of("demo", "--store", store.toString(), "--hooks", "100", "--tenants", "5",
                "--fail-rate", "0");

        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.err()).contains("replacing the previous demo store");
        assertThat(number(again.out(), "delivered")).isEqualTo(100);
    }

    @Test
    void aDirectoryThatIsNotADemosIsRefused() throws Exception {
        Path taken = Files.createDirectories(dir.resolve("real"));
        Files.writeString(taken.resolve("keep"), "data");

        CommandRun run = CommandRun.of("demo", "--store", taken.toString(), "--hooks", "10");

        assertThat(run.exitCode()).isEqualTo(ExitCode.TARGET_EXISTS.code());
        assertThat(run.errLines()).singleElement().asString().contains("not a demo's store");
        assertThat(taken.resolve("keep")).hasContent("data");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--hooks 0", "--tenants 0", "--fail-rate 1.5", "--secret whsec_x", "--skew -1"})
    void outOfRangeOptionsAreUsageErrors(String options) {
        String[] args = ("demo --store " + dir.resolve("d") + " " + options).split(" ");

        CommandRun run = CommandRun.of(args);

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.errLines()).hasSize(1);
        assertThat(dir.resolve("d")).doesNotExist();
    }
}
