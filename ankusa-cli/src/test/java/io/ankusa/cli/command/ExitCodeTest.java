package io.ankusa.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exit codes are a contract with scripts (docs/cli.md): their values never change. */
class ExitCodeTest {

    @Test
    void everyExitCodeKeepsItsDocumentedValue() {
        Map<ExitCode, Integer> values = new LinkedHashMap<>();
        Arrays.stream(ExitCode.values()).forEach(c -> values.put(c, c.code()));

        assertThat(values).containsExactly(
                Map.entry(ExitCode.OK, 0),
                Map.entry(ExitCode.FAILURE, 1),
                Map.entry(ExitCode.USAGE, 2),
                Map.entry(ExitCode.NO_STORE, 3),
                Map.entry(ExitCode.STORE_LOCKED, 4),
                Map.entry(ExitCode.STORE_NEWER, 5),
                Map.entry(ExitCode.UNKNOWN_TENANT, 6),
                Map.entry(ExitCode.BACKEND_MISMATCH, 7),
                Map.entry(ExitCode.STORE_CORRUPT, 8),
                Map.entry(ExitCode.TARGET_EXISTS, 9),
                Map.entry(ExitCode.NEEDS_MIGRATION, 10),
                Map.entry(ExitCode.UNREACHABLE, 11),
                Map.entry(ExitCode.UNAUTHORIZED, 12));
    }

    @Test
    void theHelpListsEveryExitCode() {
        String help = CommandRun.of("--help").out();

        for (ExitCode code : ExitCode.values()) {
            assertThat(help).containsPattern("(?m)^\\s+" + code.code() + "\\s+\\S");
        }
    }
}
