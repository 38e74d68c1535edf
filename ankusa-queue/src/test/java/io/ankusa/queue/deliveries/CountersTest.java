package io.ankusa.queue.deliveries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.keys.CounterKey;
import io.ankusa.store.WriteBatch;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CountersTest {

    private static Map<CounterKey, Long> byKey(List<WriteBatch.Merge> ops) {
        return ops.stream().collect(Collectors.toMap(m -> CounterKey.decode(m.key()), WriteBatch.Merge::delta));
    }

    @Test
    void coalescesPerOrdAndFieldAndAddsTheSameToTheAggregate() {
        List<WriteBatch.Merge> ops = Counters.ops(List.of(
                new CounterDelta(5, CounterField.PENDING, 1),
                new CounterDelta(5, CounterField.PENDING, 1),
                new CounterDelta(5, CounterField.BYTES, 100),
                new CounterDelta(9, CounterField.PENDING, 1),
                new CounterDelta(9, CounterField.INFLIGHT, 1),
                new CounterDelta(9, CounterField.INFLIGHT, -1)));
        assertThat(byKey(ops)).containsOnly(
                Map.entry(new CounterKey(0, 1), 3L),
                Map.entry(new CounterKey(0, 5), 100L),
                Map.entry(new CounterKey(5, 1), 2L),
                Map.entry(new CounterKey(5, 5), 100L),
                Map.entry(new CounterKey(9, 1), 1L));
        assertThat(ops).allSatisfy(m -> assertThat(m.family()).isEqualTo("counters"));
        assertThat(ops).hasSize(5);
    }

    @Test
    void nothingForNoDeltasAndNeverADeltaForOrdinalZeroDirectly() {
        assertThat(Counters.ops(List.of())).isEmpty();
        assertThatThrownBy(() -> new CounterDelta(0, CounterField.DEAD, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fieldNumbersAreTheSpecs() {
        assertThat(CounterField.values()).extracting(CounterField::number).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
    }
}
