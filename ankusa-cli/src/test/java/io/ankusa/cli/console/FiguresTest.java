package io.ankusa.cli.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FiguresTest {

    @Test
    void countsAreGrouped() {
        assertThat(Figures.count(100_000)).isEqualTo("100,000");
        assertThat(Figures.count(7)).isEqualTo("7");
    }

    @Test
    void bytesShowAUnitAndTheExactValue() {
        assertThat(Figures.bytes(512)).isEqualTo("512 B");
        assertThat(Figures.bytes(35_688_890)).isEqualTo("34.0 MiB (35,688,890 B)");
    }

    @Test
    void durationsPickAReadableUnit() {
        assertThat(Figures.duration(Duration.ofMillis(850))).isEqualTo("850 ms");
        assertThat(Figures.duration(Duration.ofMillis(12_345))).isEqualTo("12.3 s");
        assertThat(Figures.duration(Duration.ofSeconds(245))).isEqualTo("4 min 05 s");
        assertThat(Figures.duration(Duration.ofMinutes(200))).isEqualTo("3 h 20 min");
        assertThat(Figures.millis(Duration.ofNanos(420_000))).isEqualTo("0.42 ms");
    }

    @Test
    void ratesArePerSecond() {
        assertThat(Figures.rate(50_000, Duration.ofMillis(500))).isEqualTo("100,000/s");
    }
}
