package io.ankusa.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TenantSkewTest {

    @Test
    void sharesSumToOneAndFallWithTheIndex() {
        TenantSkew skew = new TenantSkew(1000, 1.1);

        double sum = IntStream.range(0, 1000).mapToDouble(skew::share).sum();

        assertThat(sum).isCloseTo(1.0, within(1e-9));
        assertThat(skew.share(0)).isGreaterThan(skew.share(1)).isGreaterThan(0.15);
        assertThat(IntStream.range(500, 1000).mapToDouble(skew::share).sum()).isLessThan(0.08);
    }

    @Test
    void drawsFollowTheShares() {
        TenantSkew skew = new TenantSkew(1000, 1.1);
        SplittableRandom random = new SplittableRandom(7);
        int[] counts = new int[1000];

        for (int i = 0; i < 200_000; i++) {
            counts[skew.next(random)]++;
        }

        assertThat(counts[0] / 200_000.0).isCloseTo(skew.share(0), within(0.01));
        assertThat(counts[9] / 200_000.0).isCloseTo(skew.share(9), within(0.005));
    }

    @Test
    void exponentZeroIsUniformAndEveryIndexIsInRange() {
        TenantSkew skew = new TenantSkew(4, 0);
        SplittableRandom random = new SplittableRandom(1);

        assertThat(skew.share(3)).isCloseTo(0.25, within(1e-12));
        assertThat(IntStream.range(0, 10_000).map(i -> skew.next(random))).allMatch(i -> i >= 0 && i < 4);
    }
}
