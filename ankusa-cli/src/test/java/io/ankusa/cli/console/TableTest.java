package io.ankusa.cli.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableTest {

    @Test
    void columnsAlignTextLeftAndNumbersRight() {
        String text = Table.columns("tenant", "hooks").title("Top:")
                .row("a", "1,000")
                .row("longer-name", "7")
                .render();

        assertThat(text).isEqualTo("""
                Top:
                tenant       hooks
                a            1,000
                longer-name      7
                """);
    }

    @Test
    void keyValueHasNoHeaderAndNoTrailingSpaces() {
        String text = Table.keyValue().row("pending", "3").row("oldest due", "").render();

        assertThat(text).isEqualTo("pending     3\noldest due\n");
    }

    @Test
    void textColumnsCanBeLeftAligned() {
        String text = Table.columns("n", "error", "count").leftAligned(1).row("1", "gone", "7").row("22", "timed out", "10").render();

        assertThat(text).isEqualTo("n   error      count\n1   gone           7\n22  timed out     10\n");
    }

    @Test
    void aRowOfTheWrongWidthIsRefused() {
        assertThatThrownBy(() -> Table.columns("a", "b").row("1")).isInstanceOf(IllegalArgumentException.class);
    }
}
