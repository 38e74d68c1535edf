package io.ankusa.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The fencing bound a node builds with: its default from the session timeout, and what is refused. */
class FencingBoundTest {

    private static final Sink SINK = d -> CompletableFuture.completedFuture(SinkOutcome.delivered());

    private static KafkaNode.Builder builder() {
        return KafkaNode.builder("127.0.0.1:1", "hooks", "nodes", Path.of("unused"), SINK);
    }

    @Test
    void theDefaultIsTwoThirdsOfTheSessionTimeout() {
        assertThat(builder().checkedFencingBound()).as("Kafka's default session timeout, 45 s")
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(builder().property("session.timeout.ms", 6000).checkedFencingBound())
                .isEqualTo(Duration.ofSeconds(4));
        assertThat(builder().property("session.timeout.ms", "9000").checkedFencingBound())
                .isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void aBoundBelowTheSessionTimeoutIsKept() {
        assertThat(builder().property("session.timeout.ms", 6000).fencingBound(Duration.ofMillis(5999))
                .checkedFencingBound()).isEqualTo(Duration.ofMillis(5999));
    }

    @Test
    void refusesABoundAtOrAboveTheSessionTimeoutNamingBoth() {
        assertThatThrownBy(() -> builder().property("session.timeout.ms", 6000).fencingBound(Duration.ofSeconds(6))
                .build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fencing bound 6000 ms").hasMessageContaining("session.timeout.ms 6000 ms");
        assertThatThrownBy(() -> builder().fencingBound(Duration.ofMinutes(1)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fencing bound 60000 ms").hasMessageContaining("session.timeout.ms 45000 ms");
    }

    @Test
    void refusesABoundAtOrBelowThePollTimeout() {
        assertThatThrownBy(() -> builder().fencingBound(Duration.ofMillis(200)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("poll timeout 200 ms");
        assertThatThrownBy(() -> builder().fencingBound(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesASessionTimeoutThatIsNotANumber() {
        assertThatThrownBy(() -> builder().property("session.timeout.ms", "six seconds").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("session.timeout.ms");
    }
}
