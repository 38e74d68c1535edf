package io.ankusa.cli.demo;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Picks tenants with a Zipf-like skew: tenant {@code i} (0-based) is drawn with a probability
 * proportional to {@code 1 / (i + 1)^exponent}, so a few tenants are noisy and most are quiet.
 * With 1 000 tenants and exponent 1.1 the first tenant gets about 18% of the hooks and the
 * last 500 together about 6%.
 *
 * <p>Immutable; the randomness comes from the caller.
 */
public final class TenantSkew {

    private final double[] cumulative;

    /**
     * A skew over {@code tenants} tenants.
     *
     * @param exponent 0 for uniform, larger for more skew
     */
    public TenantSkew(int tenants, double exponent) {
        if (tenants < 1) {
            throw new IllegalArgumentException("at least one tenant: " + tenants);
        }
        if (!(exponent >= 0) || Double.isInfinite(exponent)) {
            throw new IllegalArgumentException("exponent must be a finite number >= 0: " + exponent);
        }
        cumulative = new double[tenants];
        double sum = 0;
        for (int i = 0; i < tenants; i++) {
            sum += 1 / Math.pow(i + 1, exponent);
            cumulative[i] = sum;
        }
        for (int i = 0; i < tenants; i++) {
            cumulative[i] /= sum;
        }
        cumulative[tenants - 1] = 1.0;
    }

    /** How many tenants. */
    public int tenants() {
        return cumulative.length;
    }

    /** The share of hooks tenant {@code index} gets, in expectation. */
    public double share(int index) {
        return index == 0 ? cumulative[0] : cumulative[index] - cumulative[index - 1];
    }

    /** A tenant index in {@code [0, tenants)}. */
    public int next(RandomGenerator random) {
        int found = Arrays.binarySearch(cumulative, random.nextDouble());
        return found >= 0 ? found : Math.min(-found - 1, cumulative.length - 1);
    }
}
