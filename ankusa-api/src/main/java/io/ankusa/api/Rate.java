package io.ankusa.api;

/**
 * A token-bucket rate: {@code perSecond} tokens are added each second up to {@code burst}; one
 * unit of work (a delivery, an ingested hook) takes one token. {@link #UNLIMITED} admits
 * everything and costs nothing to check.
 *
 * @param perSecond tokens added per second, greater than 0 (or {@link Double#POSITIVE_INFINITY}
 *                  for no limit)
 * @param burst     most tokens held at once, at least 1: how much work may go at once after a
 *                  quiet spell
 */
public record Rate(double perSecond, long burst) {

    /** No limit. */
    public static final Rate UNLIMITED = new Rate(Double.POSITIVE_INFINITY, Long.MAX_VALUE);

    /**
     * Checks the values.
     *
     * @param perSecond tokens added per second, greater than 0
     * @param burst     most tokens held at once, at least 1
     */
    public Rate {
        if (Double.isNaN(perSecond) || perSecond <= 0) {
            throw new IllegalArgumentException("a rate must be positive: " + perSecond);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("a burst must be at least 1: " + burst);
        }
    }

    /**
     * A rate with a burst of one second's worth of tokens (at least 1).
     *
     * @param perSecond tokens added per second
     * @return the rate
     */
    public static Rate perSecond(double perSecond) {
        return new Rate(perSecond, Math.max(1, (long) Math.ceil(perSecond)));
    }

    /** {@return whether this rate admits everything} */
    public boolean unlimited() {
        return Double.isInfinite(perSecond);
    }
}
