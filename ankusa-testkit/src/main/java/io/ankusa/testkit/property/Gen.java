package io.ankusa.testkit.property;

import java.util.List;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/** A generator of values from a seeded random source. */
@FunctionalInterface
public interface Gen<T> {

    /**
     * The next value.
     *
     * @param random the source of randomness (seeded by the harness)
     * @return a value
     */
    T next(RandomGenerator random);

    /**
     * This generator's values passed through {@code f}.
     *
     * @param <R> the type of the mapped values
     * @param f   the mapping
     * @return a generator of the mapped values
     */
    default <R> Gen<R> map(Function<? super T, ? extends R> f) {
        return random -> f.apply(next(random));
    }

    /**
     * Integers in {@code [lo, hiInclusive]}.
     *
     * @param lo          the least value
     * @param hiInclusive the greatest value
     * @return the generator
     */
    static Gen<Integer> ints(int lo, int hiInclusive) {
        return random -> lo + random.nextInt(hiInclusive - lo + 1);
    }

    /**
     * Longs in {@code [lo, hiInclusive]}.
     *
     * @param lo          the least value
     * @param hiInclusive the greatest value
     * @return the generator
     */
    static Gen<Long> longs(long lo, long hiInclusive) {
        return random -> lo + random.nextLong(hiInclusive - lo + 1);
    }

    /**
     * Byte arrays of a length in {@code [minLength, maxLength]}.
     *
     * @param minLength the shortest length
     * @param maxLength the longest length
     * @return a generator of random bytes
     */
    static Gen<byte[]> bytes(int minLength, int maxLength) {
        return random -> {
            byte[] out = new byte[minLength + random.nextInt(maxLength - minLength + 1)];
            random.nextBytes(out);
            return out;
        };
    }

    /**
     * One of {@code values}, uniformly.
     *
     * @param <T>    the values' type
     * @param values the values to pick from; not empty
     * @return the generator
     */
    static <T> Gen<T> oneOf(List<T> values) {
        List<T> copy = List.copyOf(values);
        return random -> copy.get(random.nextInt(copy.size()));
    }

    /**
     * One of the generators, chosen with the given weights.
     *
     * @param <T>     the values' type
     * @param choices the generators, each with its positive weight
     * @return the generator
     */
    static <T> Gen<T> frequency(List<Weighted<Gen<T>>> choices) {
        int total = choices.stream().mapToInt(Weighted::weight).sum();
        return random -> {
            int pick = random.nextInt(total);
            for (Weighted<Gen<T>> choice : choices) {
                pick -= choice.weight();
                if (pick < 0) {
                    return choice.value().next(random);
                }
            }
            throw new IllegalStateException("weights changed while generating");
        };
    }

    /** A value with a positive weight. */
    record Weighted<V>(int weight, V value) {
        /**
         * Checks the weight.
         *
         * @param weight how often the value is picked relative to the others; positive
         * @param value  the value
         */
        public Weighted {
            if (weight <= 0) {
                throw new IllegalArgumentException("weight must be positive: " + weight);
            }
        }
    }
}
