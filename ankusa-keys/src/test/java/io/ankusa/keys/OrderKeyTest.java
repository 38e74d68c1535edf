package io.ankusa.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class OrderKeyTest {

    @Test
    void keysRoundTripAndAGroupSortsBySeqWithinItsRange() {
        OrderKey a = new OrderKey(7, 3, OrderKey.group("order_1042"), 10);
        OrderKey b = new OrderKey(7, 3, OrderKey.group("order_1042"), 11);
        assertThat(OrderKey.decode(a.encode())).isEqualTo(a);
        assertThat(Arrays.compareUnsigned(a.encode(), b.encode())).isNegative();
        KeySpan group = OrderKey.groupRange(7, 3, a.group());
        assertThat(Arrays.compareUnsigned(group.from(), a.encode())).isNotPositive();
        assertThat(Arrays.compareUnsigned(b.encode(), group.to())).isNegative();
        KeySpan otherSink = OrderKey.groupRange(7, 4, a.group());
        assertThat(Arrays.compareUnsigned(b.encode(), otherSink.from())).as("another sink is another order").isNegative();
        KeySpan tenant = OrderKey.tenantRange(7);
        assertThat(Arrays.compareUnsigned(tenant.from(), a.encode())).isNotPositive();
        assertThat(Arrays.compareUnsigned(b.encode(), tenant.to())).isNegative();
    }

    @Test
    void aGroupIsNeverZeroAndDependsOnTheKeyOnly() {
        assertThat(OrderKey.group("k")).isEqualTo(OrderKey.group("k")).isNotEqualTo(OrderKey.group("k2"))
                .isNotZero();
        assertThatThrownBy(() -> new OrderKey(1, 0, DueKey.UNORDERED, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderKey.decode(OrderKey.FAMILY.lo())).isInstanceOf(KeyFormatException.class);
    }

    @Test
    void orderedDueAndInflightValuesCarryTheGroupAndUnorderedOnesAreAsBefore() {
        assertThat(DueKey.value(40, DueKey.KIND_RETRY)).hasSize(DueKey.VALUE_LENGTH);
        byte[] ordered = DueKey.value(40, DueKey.KIND_RETRY, 99);
        assertThat(ordered).hasSize(DueKey.ORDERED_VALUE_LENGTH);
        assertThat(DueKey.decodeValue(ordered)).isEqualTo(new DueKey.Value(40, DueKey.KIND_RETRY, 99));
        assertThat(DueKey.decodeValue(DueKey.value(40, DueKey.KIND_FIRST)).group()).isEqualTo(DueKey.UNORDERED);
        byte[] zeroGroup = Arrays.copyOf(DueKey.value(40, DueKey.KIND_FIRST), DueKey.ORDERED_VALUE_LENGTH);
        assertThatThrownBy(() -> DueKey.decodeValue(zeroGroup)).isInstanceOf(KeyFormatException.class);

        assertThat(InflightKey.value(40, DueKey.UNORDERED)).isEqualTo(InflightKey.value(40));
        byte[] inflight = InflightKey.value(40, 99);
        assertThat(InflightKey.decodeValue(inflight)).isEqualTo(40);
        assertThat(InflightKey.decodeGroup(inflight)).isEqualTo(99);
        assertThat(InflightKey.decodeGroup(InflightKey.value(40))).isEqualTo(DueKey.UNORDERED);
        assertThatThrownBy(() -> InflightKey.decodeGroup(new byte[7])).isInstanceOf(KeyFormatException.class);
    }
}
