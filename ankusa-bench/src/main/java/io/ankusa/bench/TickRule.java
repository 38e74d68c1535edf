package io.ankusa.bench;

import java.util.Collection;
import java.util.DoubleSummaryStatistics;
import java.util.Locale;
import java.util.Optional;

/**
 * The pass rule of the spec's tick benches: the slowest cell within 2× of the fastest (the fastest
 * counted as at least 1 ms) and under 50 ms. A tick that grew with the queue or the tenant count
 * would break one of the two.
 */
final class TickRule {

    static final double FLOOR_MILLIS = 1.0;
    static final double MAX_SPREAD = 2.0;
    static final double LIMIT_MILLIS = 50.0;

    private TickRule() {
    }

    /** What is wrong with {@code cells} (milliseconds), empty when the rule holds. */
    static Optional<String> violation(String what, Collection<Double> cells) {
        DoubleSummaryStatistics s = cells.stream().mapToDouble(Double::doubleValue).summaryStatistics();
        double allowed = Math.min(MAX_SPREAD * Math.max(s.getMin(), FLOOR_MILLIS), LIMIT_MILLIS);
        if (s.getMax() > MAX_SPREAD * Math.max(s.getMin(), FLOOR_MILLIS) || s.getMax() >= LIMIT_MILLIS) {
            return Optional.of(String.format(Locale.ROOT, "%s: slowest cell %.3f ms, fastest %.3f ms; allowed up to %.3f ms",
                    what, s.getMax(), s.getMin(), allowed));
        }
        return Optional.empty();
    }

    /** The verdict line for a table. */
    static String verdict(String what, Collection<Double> cells) {
        DoubleSummaryStatistics s = cells.stream().mapToDouble(Double::doubleValue).summaryStatistics();
        return String.format(Locale.ROOT, "%s: fastest %.3f ms (counted as %.3f), slowest %.3f ms, limit %.3f ms: %s",
                what, s.getMin(), Math.max(s.getMin(), FLOOR_MILLIS), s.getMax(),
                Math.min(MAX_SPREAD * Math.max(s.getMin(), FLOOR_MILLIS), LIMIT_MILLIS),
                violation(what, cells).isPresent() ? "FAIL" : "pass");
    }
}
