package io.ankusa.bench.soak;

/**
 * A least-squares line through (minute, value) points, with its noise: the residual standard
 * deviation (how far the samples scatter around the line) and the slope's standard error (that
 * scatter divided by the spread of the sample times), so a slope can be read against the noise of
 * the series it came from.
 *
 * @param slopePerMinute   the fitted slope, units per minute
 * @param residualSd       standard deviation of the residuals around the line (n - 2 degrees of freedom)
 * @param slopeStdError    standard error of the slope, units per minute
 * @param points           how many samples the fit used
 */
record Trend(double slopePerMinute, double residualSd, double slopeStdError, int points) {

    /** Fits {@code values} against {@code minutes}; both the same length, at least 3 points. */
    static Trend fit(double[] minutes, double[] values) {
        int n = minutes.length;
        if (n != values.length || n < 3) {
            throw new IllegalArgumentException("need at least 3 (minute, value) pairs, got " + n + "/" + values.length);
        }
        double meanX = 0;
        double meanY = 0;
        for (int i = 0; i < n; i++) {
            meanX += minutes[i];
            meanY += values[i];
        }
        meanX /= n;
        meanY /= n;
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (minutes[i] - meanX) * (minutes[i] - meanX);
            sxy += (minutes[i] - meanX) * (values[i] - meanY);
        }
        double slope = sxy / sxx;
        double intercept = meanY - slope * meanX;
        double squares = 0;
        for (int i = 0; i < n; i++) {
            double residual = values[i] - (intercept + slope * minutes[i]);
            squares += residual * residual;
        }
        double residualSd = Math.sqrt(squares / (n - 2));
        return new Trend(slope, residualSd, residualSd / Math.sqrt(sxx), n);
    }

    /** True when the slope is within two standard errors of zero (statistically indistinguishable from flat). */
    boolean withinStandardErrors() {
        return Math.abs(slopePerMinute) <= 2 * slopeStdError;
    }

    /** How far the fitted line rises over {@code minutes}: the growth the series shows over the window. */
    double drift(double minutes) {
        return slopePerMinute * minutes;
    }

    /**
     * True when the line's rise over the whole window ({@code minutes}) is at most twice the
     * residual standard deviation, or at most {@code floor} (in the series' units) when that is
     * larger: a growth no larger than the scatter of single samples, the soak's meaning of "within
     * noise". Unlike {@link #withinStandardErrors()}, which flags any slope however small once
     * there are enough samples, this asks whether the growth matters at the scale the series moves
     * anyway. The floor is the resolution below which a rise is not read as growth: a series that
     * is constant but for one step (one 4 KiB page of a store) has a residual sd near zero, and
     * without a floor that single step would fail it. The smallest slope it flags is
     * {@link #smallestFlagged}.
     */
    boolean flat(double minutes, double floor) {
        return Math.abs(drift(minutes)) <= tolerance(floor);
    }

    /** The largest rise over the window {@link #flat} accepts: {@code max(2 residual sd, floor)}. */
    double tolerance(double floor) {
        return Math.max(2 * residualSd, floor);
    }

    /** The smallest slope per minute {@link #flat} would flag over {@code minutes}. */
    double smallestFlagged(double minutes, double floor) {
        return tolerance(floor) / minutes;
    }
}
