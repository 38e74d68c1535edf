package io.ankusa.cli.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressBarTest {

    @Test
    void theFinalLineShowsTheWholeBarTheCountsAndTheRate() {
        StringWriter err = new StringWriter();
        AtomicLong done = new AtomicLong();
        ProgressBar bar = ProgressBar.start(new PrintWriter(err, true), "ingest", 2_000, done::get, "lines");
        done.set(2_000);
        bar.close();

        assertThat(err.toString().lines().reduce((a, b) -> b).orElseThrow())
                .matches("ingest\\s+\\[#{30}\\] 100%  2,000/2,000  [0-9,]+/s  .+");
    }

    @Test
    void aTerminalBarIsRedrawnInPlace() {
        StringWriter err = new StringWriter();
        ProgressBar bar = ProgressBar.start(new PrintWriter(err, true), "ingest", 10, () -> 10, "tty");
        bar.close();

        assertThat(err.toString()).startsWith("\r").endsWith("\u001B[K" + System.lineSeparator());
    }

    @Test
    void aPartialBarIsFilledInProportion() {
        StringWriter err = new StringWriter();
        ProgressBar bar = ProgressBar.start(new PrintWriter(err, true), "deliver", 100, () -> 0, "off");
        try {
            assertThat(bar.line(50)).startsWith("deliver   [" + "#".repeat(15) + ".".repeat(15) + "]  50%  50/100");
        } finally {
            bar.close();
        }
    }
}
