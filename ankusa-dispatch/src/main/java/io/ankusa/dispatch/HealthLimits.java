package io.ankusa.dispatch;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link NodeHealth} judges a node by.
 *
 * @param maxDeliverableAge how long the oldest row the node should be delivering now may have been due before the
 *                          node is down (dispatch is not keeping up); empty: the age is reported, never judged
 * @param maxTickSilence    how long the tick loop of a started pipeline may go without ending a tick (a tick loop
 *                          that hangs)
 * @param maxSinkSilence    how long the sink may give no outcome while its attempts run out the sink deadline (a
 *                          sink that stopped completing its stages)
 */
public record HealthLimits(Optional<Duration> maxDeliverableAge, Duration maxTickSilence, Duration maxSinkSilence) {

    /** No judged backlog age; a minute of tick silence, two of sink silence. */
    public static final HealthLimits DEFAULTS = new HealthLimits(Optional.empty(), Duration.ofMinutes(1),
            Duration.ofMinutes(2));

    /**
     * Validates.
     *
     * @param maxDeliverableAge how long the oldest deliverable row may have been due; empty: never judged
     * @param maxTickSilence how long the tick loop may go without ending a tick
     * @param maxSinkSilence how long the sink may give no outcome while attempts run out the deadline
     */
    public HealthLimits {
        Objects.requireNonNull(maxDeliverableAge, "maxDeliverableAge");
        requirePositive("maxTickSilence", maxTickSilence);
        requirePositive("maxSinkSilence", maxSinkSilence);
        maxDeliverableAge.ifPresent(age -> requirePositive("maxDeliverableAge", age));
    }

    /**
     * These limits with a judged backlog age.
     *
     * @param age how long the oldest deliverable row may have been due
     * @return the new limits
     */
    public HealthLimits withMaxDeliverableAge(Duration age) {
        return new HealthLimits(Optional.of(age), maxTickSilence, maxSinkSilence);
    }

    private static void requirePositive(String name, Duration d) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }
}
