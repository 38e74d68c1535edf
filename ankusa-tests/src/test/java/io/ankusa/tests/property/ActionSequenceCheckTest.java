package io.ankusa.tests.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.testkit.property.Action;
import io.ankusa.testkit.property.ActionSequenceCheck;
import io.ankusa.testkit.property.Gen;
import io.ankusa.testkit.property.Property;
import io.ankusa.testkit.property.PropertyConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ActionSequenceCheckTest {

    /** A list with a planted bug: a third "add 7" breaks its sum check. */
    static final class BuggyCounter {
        final List<Integer> added = new ArrayList<>();
        int sevens;
        long sum;

        void add(int n) {
            added.add(n);
            if (n == 7 && ++sevens == 3) {
                return; // the bug: the third seven is lost
            }
            sum += n;
        }
    }

    @Test
    void shrinksAFailureToTheActionsThatCauseIt() {
        var check = ActionSequenceCheck.<BuggyCounter>named("sum matches")
                .config(PropertyConfig.fixed(42, 50, 60))
                .subject(BuggyCounter::new)
                .action(3, r -> {
                    int n = r.nextInt(10);
                    return Action.of("add " + n, c -> c.add(n));
                })
                .invariant(c -> assertThat(c.sum).isEqualTo(c.added.stream().mapToLong(Integer::longValue).sum()));

        assertThatThrownBy(check::run)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("-Dankusa.seed=42")
                .hasMessageContaining("to 3 actions")
                .hasMessageContaining("0: add 7\n  1: add 7\n  2: add 7");
    }

    @Test
    void passesWhenTheInvariantHolds() {
        int[] applied = {0};
        ActionSequenceCheck.<List<Integer>>named("always true")
                .config(PropertyConfig.fixed(7, 5, 20))
                .subject(ArrayList::new)
                .action(1, r -> Action.of("add", l -> {
                    l.add(1);
                    applied[0]++;
                }))
                .invariant(l -> assertThat(l).allMatch(i -> i == 1))
                .run();
        assertThat(applied[0]).isPositive();
    }

    @Test
    void sameSeedDrawsSameValues() {
        List<Integer> first = new ArrayList<>();
        List<Integer> second = new ArrayList<>();
        Property.forAll(PropertyConfig.fixed(99, 10, 1), Gen.ints(0, 1000), first::add);
        Property.forAll(PropertyConfig.fixed(99, 10, 1), Gen.ints(0, 1000), second::add);
        assertThat(first).hasSize(10).isEqualTo(second);
    }
}
