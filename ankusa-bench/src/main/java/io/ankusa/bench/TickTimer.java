package io.ankusa.bench;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Times a tick the way the spec's benches count it: a cell is the 10th percentile of
 * {@value #TICKS} ticks, the lowest of {@value #ROUNDS} rounds (after {@value #WARM_UP} ticks of
 * warm-up), with a {@value #PAUSE_NANOS} ns pause between ticks. Every tick's result goes into a
 * sink the JIT cannot drop.
 */
final class TickTimer {

    static final int TICKS = 1_000;
    static final int ROUNDS = 3;
    static final int WARM_UP = 200;
    /**
     * Pause between ticks, so the ticking thread leaves CPU to the write load running beside it
     * (a gauge ticks every few seconds, not back to back); not part of any tick's time.
     */
    static final long PAUSE_NANOS = 1_000_000;

    /** A tick: reads something and returns a number derived from what it read. */
    @FunctionalInterface
    interface Tick {
        long run();
    }

    private static long sink;

    private TickTimer() {
    }

    /** The cell in milliseconds. */
    static double cellMillis(Tick tick) {
        for (int i = 0; i < WARM_UP; i++) {
            sink += tick.run();
        }
        double best = Double.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            best = Math.min(best, percentileMillis(tick, TICKS, 10));
        }
        return best;
    }

    /** The {@code percentile}th percentile of {@code ticks} ticks, in milliseconds. */
    static double percentileMillis(Tick tick, int ticks, int percentile) {
        long[] nanos = new long[ticks];
        for (int i = 0; i < ticks; i++) {
            long start = System.nanoTime();
            sink += tick.run();
            nanos[i] = System.nanoTime() - start;
            LockSupport.parkNanos(PAUSE_NANOS);
        }
        Arrays.sort(nanos);
        return nanos[Math.min(ticks - 1, ticks * percentile / 100)] / 1e6;
    }

    /**
     * For a tick too slow for the full count: as many ticks as fit in {@code budgetMillis} (at least
     * {@code min}, at most {@value #TICKS}), their 10th percentile.
     */
    static double boundedMillis(Tick tick, long budgetMillis, int min) {
        long start = System.nanoTime();
        sink += tick.run();
        double first = (System.nanoTime() - start) / 1e6;
        int ticks = (int) Math.max(min, Math.min(TICKS, budgetMillis / Math.max(first, 0.001)));
        return percentileMillis(tick, ticks, 10);
    }

    /** Keeps the sink observable. */
    static long sink() {
        return sink;
    }
}
