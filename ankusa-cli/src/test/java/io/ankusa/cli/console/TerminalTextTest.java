package io.ankusa.cli.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TerminalTextTest {

    static Stream<Arguments> texts() {
        return Stream.of(
                Arguments.of("acme", "acme"),
                Arguments.of("caf\u00e9 \u6771\u4eac \uD83D\uDE00", "caf\u00e9 \u6771\u4eac \uD83D\uDE00"),
                Arguments.of("evil\u001b[2J", "evil\\x1b[2J"),
                Arguments.of("a\nb\r\tc", "a\\nb\\r\\tc"),
                Arguments.of("del\u007f c1\u009b", "del\\x7f c1\\x9b"),
                Arguments.of("back\\slash", "back\\\\slash"),
                Arguments.of("bidi\u202eoverride zero\u200bwidth", "bidi\\u202eoverride zero\\u200bwidth"),
                Arguments.of("line\u2028para\u2029end", "line\\u2028para\\u2029end"),
                Arguments.of("lone\uD800 low\uDC00", "lone\\ud800 low\\udc00"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("texts")
    void untrustedTextPrintsEscaped(String text, String printed) {
        assertThat(TerminalText.escape(text)).isEqualTo(printed);
    }

    @Test
    void aTableEscapesEveryCell() {
        String text = Table.columns("tenant", "pending").row("evil\u001b[2J\ntenants 0", "1").render();

        assertThat(text).doesNotContain("\u001b").isEqualTo("tenant                  pending\nevil\\x1b[2J\\ntenants 0        1\n");
    }
}
