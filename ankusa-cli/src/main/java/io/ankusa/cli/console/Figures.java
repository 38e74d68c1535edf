package io.ankusa.cli.console;

import java.time.Duration;
import java.util.Locale;

/** How the command line writes numbers, sizes, rates and durations for people. */
public final class Figures {

    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private Figures() {
    }

    /** A count with thousands grouped: {@code 100,000}. */
    public static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    /** A byte size with its exact value: {@code 1.2 MiB (1,234,567 B)}; below 1 KiB just the bytes. */
    public static String bytes(long value) {
        if (Math.abs(value) < 1024) {
            return value + " B";
        }
        double scaled = value;
        int unit = 0;
        while (Math.abs(scaled) >= 1024 && unit < UNITS.length - 1) {
            scaled /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s (%,d B)", scaled, UNITS[unit], value);
    }

    /** Events per second over {@code elapsed}: {@code 12,345/s}. */
    public static String rate(long events, Duration elapsed) {
        double seconds = Math.max(elapsed.toNanos(), 1) / 1e9;
        return String.format(Locale.ROOT, "%,d/s", Math.round(events / seconds));
    }

    /** A duration for people: {@code 850 ms}, {@code 12.3 s}, {@code 4 min 05 s}, {@code 3 h 20 min}. */
    public static String duration(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        long seconds = millis / 1000;
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", seconds / 3600, seconds % 3600 / 60);
    }

    /** A sub-millisecond-precise duration, for short timings: {@code 0.42 ms}, {@code 12.5 ms}. */
    public static String millis(Duration duration) {
        return String.format(Locale.ROOT, "%.2f ms", duration.toNanos() / 1e6);
    }

    /** How long ago something became due: {@code 12.3 s ago}. */
    public static String age(Duration age) {
        return duration(age) + " ago";
    }

    /** A fraction as a percentage: {@code 5.0%}. */
    public static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }
}
