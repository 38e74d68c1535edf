package io.ankusa.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The soak's "flat" criterion: a rise within max(2 residual sd, floor) over the window. */
class TrendTest {

    private static final double PAGE_MIB = 4.0 / 1024;

    /** 121 samples over 20 minutes, 10 s apart, starting at minute 10. */
    private static double[] minutes() {
        double[] minutes = new double[121];
        for (int i = 0; i < minutes.length; i++) {
            minutes[i] = 10 + i / 6.0;
        }
        return minutes;
    }

    @Test
    @DisplayName("a constant series with one page step is flat with the store floor, and was not without it")
    void onePageStepIsFlat() {
        double[] minutes = minutes();
        double[] values = new double[minutes.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = 0.62 + (i >= 90 ? PAGE_MIB : 0);
        }
        Trend trend = Trend.fit(minutes, values);

        assertThat(trend.flat(20, 0)).as("no floor: the residual sd is near zero, one page fails it").isFalse();
        assertThat(trend.flat(20, SoakRun.STORE_FLOOR_MIB)).isTrue();
    }

    @Test
    @DisplayName("a steady growth above the floor and the scatter is not flat")
    void steadyGrowthIsNotFlat() {
        double[] minutes = minutes();
        double[] values = new double[minutes.length];
        for (int i = 0; i < values.length; i++) {
            // 0.54 MiB/min (RocksDB's resident set on main) with a ±1 MiB saw.
            values[i] = 400 + 0.54 * (minutes[i] - 10) + (i % 2 == 0 ? 1 : -1);
        }
        Trend trend = Trend.fit(minutes, values);

        assertThat(trend.slopePerMinute()).isCloseTo(0.54, org.assertj.core.data.Offset.offset(0.01));
        assertThat(trend.flat(20, SoakRun.MEMORY_FLOOR_MIB)).isFalse();
        assertThat(trend.smallestFlagged(20, SoakRun.MEMORY_FLOOR_MIB)).isCloseTo(0.1,
                org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    @DisplayName("scatter larger than the floor sets the tolerance")
    void scatterAboveTheFloor() {
        double[] minutes = minutes();
        double[] values = new double[minutes.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = 400 + (i % 2 == 0 ? 5 : -5);
        }
        Trend trend = Trend.fit(minutes, values);

        assertThat(trend.tolerance(SoakRun.MEMORY_FLOOR_MIB)).isCloseTo(2 * trend.residualSd(),
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(trend.flat(20, SoakRun.MEMORY_FLOOR_MIB)).isTrue();
    }
}
