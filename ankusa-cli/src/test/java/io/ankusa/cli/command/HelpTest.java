package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What --help shows of the commands, and the completion script. */
class HelpTest {

    /** The lines of the "Commands:" section of {@code ankusa --help}. */
    private static List<String> commandLines() {
        CommandRun run = CommandRun.of("--help");
        assertThat(run.exitCode()).isZero();
        String section = run.out().substring(run.out().indexOf("Commands:"));
        return section.lines().skip(1).takeWhile(line -> !line.isBlank()).toList();
    }

    @Test
    void everyCommandSummaryIsAWholeSentenceOnOneLine() {
        List<String> lines = commandLines();

        assertThat(lines).extracting(line -> line.trim().split("\\s+")[0])
                .containsExactly("demo", "stats", "tenants", "dlq", "attempts", "hook", "purge", "quarantine",
                        "endpoints", "erase", "replay", "serve", "migrate", "checkpoint", "completion");
        assertThat(lines).allSatisfy(line -> assertThat(line).matches("  [a-z]+\\s+[A-Z].*\\."));
    }

    @Test
    void endpointsListsItsRegistrySubcommandsEachWithAOneLineSentence() {
        CommandRun run = CommandRun.of("endpoints", "--help");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = run.out().substring(run.out().indexOf("Commands:")).lines().skip(1)
                .takeWhile(line -> !line.isBlank()).toList();
        assertThat(lines).extracting(line -> line.trim().split("\\s+")[0])
                .containsExactly("add", "update", "rotate", "remove");
        assertThat(lines).allSatisfy(line -> assertThat(line).matches("  [a-z]+\\s+[A-Z].*\\."));
        assertThat(run.out()).contains("list, enable or disable");
        for (String sub : List.of("add", "update")) {
            assertThat(CommandRun.of("endpoints", sub, "--help").out()).contains("--endpoint-url", "--event-type",
                    "--header", "--url", "--json");
        }
        assertThat(CommandRun.of("endpoints", "rotate", "--help").out()).contains("--overlap", "PT24H");
    }

    @Test
    void theFixtureWriterIsHiddenFromHelpButStillRuns() {
        assertThat(String.join("\n", commandLines())).doesNotContain("fixture");

        CommandRun help = CommandRun.of("fixture", "--help");

        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("--out");
    }

    @Test
    void completionPrintsABashScriptForTheVisibleCommands() {
        CommandRun run = CommandRun.of("completion");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_ankusa")
                .contains("stats").contains("--json").contains("--backend").doesNotContain("fixture");
    }
}
