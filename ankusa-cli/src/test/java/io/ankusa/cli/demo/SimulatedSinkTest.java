package io.ankusa.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulatedSinkTest {

    private static Delivery delivery(int n, int attempt) {
        return new Delivery("demo-" + n, "src", "t", 0, attempt, Map.of(), new byte[0], Instant.EPOCH, Instant.EPOCH);
    }

    private static SinkOutcome outcome(SimulatedSink sink, int n, int attempt) {
        return sink.deliver(delivery(n, attempt)).toCompletableFuture().join();
    }

    @Test
    void failsAboutTheConfiguredShareOfAttemptsAndSomeForGood() {
        CountingSink sink = new CountingSink(new SimulatedSink(42, 0.05, 0.2));

        for (int n = 0; n < 100_000; n++) {
            sink.deliver(delivery(n, 1)).toCompletableFuture().join();
        }

        assertThat(sink.delivered() + sink.retried() + sink.dead()).isEqualTo(100_000);
        assertThat((sink.retried() + sink.dead()) / 100_000.0).isCloseTo(0.05, within(0.005));
        assertThat(sink.dead() / (double) (sink.retried() + sink.dead())).isCloseTo(0.2, within(0.03));
    }

    @Test
    void anAttemptsOutcomeDependsOnlyOnTheSeedTheHookAndTheAttempt() {
        SimulatedSink one = new SimulatedSink(42, 0.5, 0.5);
        SimulatedSink two = new SimulatedSink(42, 0.5, 0.5);

        for (int n = 0; n < 1000; n++) {
            assertThat(outcome(one, n, 2)).isEqualTo(outcome(two, n, 2));
        }
    }

    @Test
    void aZeroRateDeliversEverything() {
        SimulatedSink sink = new SimulatedSink(1, 0, 1);

        for (int n = 0; n < 1000; n++) {
            assertThat(outcome(sink, n, 1)).isInstanceOf(SinkOutcome.Delivered.class);
        }
    }
}
