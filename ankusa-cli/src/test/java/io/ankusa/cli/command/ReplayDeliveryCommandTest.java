package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ankusa replay --tenant T --seq N --sink S}: one dead delivery, as {@code dlq} lists it,
 * replayed; and what a delivery that is not dead or not there exits with.
 */
class ReplayDeliveryCommandTest {

    @TempDir
    Path dir;

    /** The first column of the table rows (between the header and the last line). */
    private static List<String> firstColumn(String out) {
        List<String> lines = out.lines().toList();
        return lines.subList(1, lines.size() - 1).stream().map(line -> line.split("\\s+")[0]).toList();
    }

    /** A store whose hooks all end dead (every attempt fails for good), made by a small demo. */
    private Path deadStore(String backend) {
        Path store = dir.resolve("dead-" + backend);
        CommandRun demo = CommandRun.of("demo", "--store", store.toString(), "--backend", backend, "--hooks", "20",
                "--tenants", "2", "--fail-rate", "1", "--permanent-share", "1");
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        return store;
    }

    @ParameterizedTest
    @ValueSource(strings = {"rocksdb", "lmdb"})
    void replayOfOneDeadDeliveryRevivesItAndDlqNoLongerListsIt(String backend) {
        Path store = deadStore(backend);
        String[] dlq = {"dlq", "--store", store.toString(), "--backend", backend, "--tenant", "tenant-0",
            "--limit", "100"};
        CommandRun before = CommandRun.of(dlq);
        Matcher letter = Pattern.compile("(?m)^20\\S+  tenant-0\\s+(demo-\\d+)\\s+(\\d+)\\s+(\\d+)\\s+1  simulated")
                .matcher(before.out());
        assertThat(letter.find()).as("a letter row with hook, seq, sink in%n%s", before.out()).isTrue();
        String hookId = letter.group(1);
        String seq = letter.group(2);
        String sink = letter.group(3);
        int lettersBefore = firstColumn(before.out()).size() - 1;
        String deadRow = "hook " + hookId + " seq " + seq;
        assertThat(CommandRun.of("hook", "--store", store.toString(), "--backend", backend, "--tenant", "tenant-0",
                "--seq", seq).out()).containsPattern("\n" + sink + " +dead +1  20\\S+Z  simulated permanent failure");

        CommandRun replay = CommandRun.of("replay", "--store", store.toString(), "--backend", backend,
                "--tenant", "tenant-0", "--seq", seq, "--sink", sink);

        assertThat(replay.exitCode()).as(replay.err()).isZero();
        assertThat(replay.out()).isEqualTo("replayed hook " + seq + " of tenant tenant-0 to sink " + sink
                + ": due now as a first attempt\n");
        CommandRun after = CommandRun.of(dlq);
        assertThat(after.out()).as(deadRow).doesNotContainPattern("  " + hookId + "\\s+" + seq + "\\s+" + sink + " ");
        assertThat(firstColumn(after.out())).hasSize(lettersBefore);
        assertThat(CommandRun.of("hook", "--store", store.toString(), "--backend", backend, "--tenant", "tenant-0",
                "--seq", seq).out()).containsPattern("\n" + sink + " +due +0  ");

        CommandRun again = CommandRun.of("replay", "--store", store.toString(), "--backend", backend,
                "--tenant", "tenant-0", "--seq", seq, "--sink", sink);
        assertThat(again.exitCode()).as("not dead any more").isEqualTo(ExitCode.USAGE.code());
        assertThat(again.errLines()).containsExactly("ankusa: hook " + seq + " of tenant 'tenant-0' to sink " + sink
                + " is not a dead letter (it is due); nothing replayed");
    }

    @Test
    void replayOfADeliveryTheTenantDoesNotHoldIsTheNotFoundExitCode() {
        Path store = deadStore("rocksdb");

        CommandRun sink = CommandRun.of("replay", "--store", store.toString(), "--tenant", "tenant-0", "--seq", "1",
                "--sink", "7");
        CommandRun tenant = CommandRun.of("replay", "--store", store.toString(), "--tenant", "nobody", "--seq", "1",
                "--sink", "0");

        assertThat(sink.exitCode()).isEqualTo(ExitCode.UNKNOWN_TENANT.code());
        assertThat(sink.errLines()).containsExactly("ankusa: no hook 1 of tenant 'tenant-0' to sink 7 in " + store
                + " (never ingested, or every delivery ended and the hook was deleted)");
        assertThat(tenant.exitCode()).isEqualTo(ExitCode.UNKNOWN_TENANT.code());
        assertThat(tenant.errLines()).containsExactly("ankusa: unknown tenant 'nobody' in " + store);
    }
}
