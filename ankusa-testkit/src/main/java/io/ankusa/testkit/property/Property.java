package io.ankusa.testkit.property;

import java.util.SplittableRandom;

/** Plain value properties: a generator, a check, many seeded tries. */
public final class Property {

    private Property() {
    }

    /**
     * Runs {@code check} on {@code config.tries()} generated values; reports the seed on failure.
     *
     * @param <T>    the type of the generated values
     * @param config the master seed and the number of tries
     * @param gen    draws the values
     * @param check  what must hold for every value; an exception or assertion error fails the property
     */
    public static <T> void forAll(PropertyConfig config, Gen<T> gen, ThrowingConsumer<T> check) {
        SplittableRandom master = new SplittableRandom(config.seed());
        for (int t = 0; t < config.tries(); t++) {
            long trySeed = master.nextLong();
            T value = gen.next(new SplittableRandom(trySeed));
            try {
                check.accept(value);
            } catch (Throwable e) {
                throw new AssertionError("property failed on try " + t + " of seed " + config.seed()
                        + " (replay with -Dankusa.seed=" + config.seed() + "); value: " + value, e);
            }
        }
    }
}
