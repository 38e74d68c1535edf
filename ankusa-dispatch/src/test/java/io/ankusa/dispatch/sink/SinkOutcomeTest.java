package io.ankusa.dispatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SinkOutcomeTest {

    @Test
    void factoriesBuildTheThreeOutcomes() {
        assertThat(SinkOutcome.delivered()).isInstanceOf(SinkOutcome.Delivered.class);
        assertThat(SinkOutcome.retry("busy")).isEqualTo(new SinkOutcome.Retry(Optional.empty(), "busy"));
        assertThat(SinkOutcome.retryAfter(Duration.ofSeconds(30), "429").after()).contains(Duration.ofSeconds(30));
        assertThat(SinkOutcome.dead("gone")).isEqualTo(new SinkOutcome.Dead("gone"));
    }

    @Test
    void aNegativeHintIsRefused() {
        assertThatThrownBy(() -> SinkOutcome.retryAfter(Duration.ofMillis(-1), "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
