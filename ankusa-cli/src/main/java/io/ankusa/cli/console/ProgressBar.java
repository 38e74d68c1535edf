package io.ankusa.cli.console;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A progress bar for one phase of work, drawn on stderr from a supplier of the work done so far.
 *
 * <p>On a terminal the bar is redrawn in place ten times a second; elsewhere (a log, a pipe) it
 * prints a line at every quarter, so logs stay short. Either way {@link #close()} draws the
 * final state with the elapsed time and the rate. The launcher tells which with the system property
 * {@value #MODE_PROPERTY} ({@code tty} or {@code lines}); without it a console means a terminal.
 */
public final class ProgressBar implements AutoCloseable {

    /** System property choosing how to draw: {@code tty}, {@code lines} or {@code off}. */
    public static final String MODE_PROPERTY = "ankusa.progress";

    private static final int WIDTH = 30;
    private static final String CLEAR_TO_END = "\u001B[K";

    private final PrintWriter err;
    private final String label;
    private final long total;
    private final LongSupplier done;
    private final String mode;
    private final long startNanos = System.nanoTime();
    private final ScheduledExecutorService ticker;
    private int quartersShown;

    private ProgressBar(PrintWriter err, String label, long total, LongSupplier done, String mode) {
        this.err = err;
        this.label = label;
        this.total = total;
        this.done = done;
        this.mode = mode;
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "ankusa-progress");
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleAtFixedRate(this::draw, 0, 100, TimeUnit.MILLISECONDS);
    }

    /** Starts drawing a bar for {@code total} units of work; {@code done} reports how many are done. */
    public static ProgressBar start(PrintWriter err, String label, long total, LongSupplier done) {
        return start(err, label, total, done, mode());
    }

    /** Starts a bar drawn in {@code mode} ({@code tty}, {@code lines} or {@code off}). */
    static ProgressBar start(PrintWriter err, String label, long total, LongSupplier done, String mode) {
        return new ProgressBar(Objects.requireNonNull(err, "err"), label, Math.max(total, 1),
                Objects.requireNonNull(done, "done"), mode);
    }

    private static String mode() {
        String mode = System.getProperty(MODE_PROPERTY);
        if (mode != null) {
            return mode;
        }
        return System.console() != null ? "tty" : "lines";
    }

    /** How long since the bar started. */
    public Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private synchronized void draw() {
        long now = Math.min(done.getAsLong(), total);
        switch (mode) {
            case "tty" -> {
                err.print("\r" + line(now) + CLEAR_TO_END);
                err.flush();
            }
            case "lines" -> {
                int quarter = (int) (now * 4 / total);
                if (quarter > quartersShown && quarter < 4) {
                    quartersShown = quarter;
                    err.println(line(now));
                    err.flush();
                }
            }
            default -> {
                // off
            }
        }
    }

    /** The bar's text for {@code now} units done. */
    String line(long now) {
        int filled = (int) (now * WIDTH / total);
        Duration elapsed = elapsed();
        return String.format(Locale.ROOT, "%-9s [%s%s] %3d%%  %s/%s  %s  %s", label,
                "#".repeat(filled), ".".repeat(WIDTH - filled), now * 100 / total,
                Figures.count(now), Figures.count(total), Figures.rate(now, elapsed), Figures.duration(elapsed));
    }

    /** Stops redrawing and draws the final state on its own line. */
    @Override
    public void close() {
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (!mode.equals("off")) {
                String last = line(Math.min(done.getAsLong(), total));
                err.println(mode.equals("tty") ? "\r" + last + CLEAR_TO_END : last);
                err.flush();
            }
        }
    }
}
