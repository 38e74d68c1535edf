package io.ankusa.testkit.property;

import java.util.SplittableRandom;

/**
 * How a property runs: the master seed, how many tries, and how many actions at most per try.
 * {@code -Dankusa.seed=N} replays a failure; {@code -Dankusa.tries} and {@code -Dankusa.actions}
 * override the counts (for longer soak runs).
 */
public record PropertyConfig(long seed, int tries, int maxActions) {

    /**
     * Validates the counts.
     *
     * @param seed       the master seed every try's seed is drawn from
     * @param tries      how many tries; positive
     * @param maxActions the most actions in one try; positive
     */
    public PropertyConfig {
        if (tries <= 0 || maxActions <= 0) {
            throw new IllegalArgumentException("tries and maxActions must be positive");
        }
    }

    /**
     * A config with these defaults, overridden by the system properties above.
     *
     * @param tries      the tries when {@code -Dankusa.tries} is not set
     * @param maxActions the most actions per try when {@code -Dankusa.actions} is not set
     * @return the config, with a random seed unless {@code -Dankusa.seed} gives one
     */
    public static PropertyConfig of(int tries, int maxActions) {
        String seed = System.getProperty("ankusa.seed");
        return new PropertyConfig(
                seed != null ? Long.parseLong(seed) : new SplittableRandom().nextLong(),
                Integer.getInteger("ankusa.tries", tries),
                Integer.getInteger("ankusa.actions", maxActions));
    }

    /**
     * A fixed seed, ignoring system properties (for tests of the harness itself).
     *
     * @param seed       the master seed
     * @param tries      how many tries; positive
     * @param maxActions the most actions in one try; positive
     * @return the config
     */
    public static PropertyConfig fixed(long seed, int tries, int maxActions) {
        return new PropertyConfig(seed, tries, maxActions);
    }
}
