package io.ankusa.dispatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SinksTest {

    private static Delivery to(int sink) {
        Instant now = Instant.parse("2026-01-02T03:04:05Z");
        return new Delivery("msg_1", "src", "acme", sink, 1, Map.of(), new byte[] {1}, now, now);
    }

    private static SinkOutcome outcome(CompletionStage<SinkOutcome> stage) throws Exception {
        return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void routesEachDeliveryToTheSinkItsNumberNames() throws Exception {
        Sinks sinks = Sinks.builder()
                .sink(0, d -> CompletableFuture.completedStage(SinkOutcome.delivered()))
                .sink(65_535, d -> CompletableFuture.completedStage(SinkOutcome.dead("sink " + d.sink())))
                .build();

        assertThat(outcome(sinks.deliver(to(0)))).isEqualTo(SinkOutcome.delivered());
        assertThat(outcome(sinks.deliver(to(65_535)))).isEqualTo(SinkOutcome.dead("sink 65535"));
        assertThat(sinks.sink(0)).isPresent();
        assertThat(sinks.sink(1)).isEmpty();
        assertThat(sinks).hasToString("Sinks[0, 65535]");
    }

    @Test
    void anUnknownSinkNumberEndsDead() throws Exception {
        Sinks sinks = Sinks.builder().sink(1, d -> CompletableFuture.completedStage(SinkOutcome.delivered())).build();

        SinkOutcome outcome = outcome(sinks.deliver(to(2)));

        assertThat(outcome).isInstanceOf(SinkOutcome.Dead.class);
        assertThat(((SinkOutcome.Dead) outcome).reason()).startsWith(Sinks.UNKNOWN_SINK).contains("2");
    }

    @Test
    void aSinkThatThrowsCostsARetryNotAnException() throws Exception {
        Sinks sinks = Sinks.builder().sink(0, d -> {
            throw new IllegalStateException("boom");
        }).build();

        assertThat(reasonOfRetry(outcome(sinks.deliver(to(0))))).startsWith(Sinks.SINK_FAILED).contains("boom");
    }

    @Test
    void aFailedStageCostsARetryAndNamesTheCause() throws Exception {
        Sinks sinks = Sinks.builder()
                .sink(0, d -> CompletableFuture.failedStage(new java.io.IOException("reset")))
                .sink(1, d -> CompletableFuture.supplyAsync(() -> {
                    throw new IllegalStateException("async boom");
                }))
                .build();

        assertThat(reasonOfRetry(outcome(sinks.deliver(to(0))))).startsWith(Sinks.SINK_FAILED).contains("IOException: reset");
        assertThat(reasonOfRetry(outcome(sinks.deliver(to(1)))))
                .contains("IllegalStateException: async boom").doesNotContain("CompletionException");
    }

    @Test
    void noStageOrNoOutcomeCostsARetry() throws Exception {
        Sinks sinks = Sinks.builder()
                .sink(0, d -> null)
                .sink(1, d -> CompletableFuture.completedStage(null))
                .build();

        assertThat(reasonOfRetry(outcome(sinks.deliver(to(0))))).contains("no stage");
        assertThat(reasonOfRetry(outcome(sinks.deliver(to(1))))).contains("without an outcome");
    }

    @Test
    void theBuilderRefusesBadNumbersDuplicatesAndNothing() {
        Sink sink = d -> CompletableFuture.completedStage(SinkOutcome.delivered());

        assertThatThrownBy(() -> Sinks.builder().sink(-1, sink)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Sinks.builder().sink(65_536, sink)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Sinks.builder().sink(3, sink).sink(3, sink))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already taken");
        assertThatThrownBy(() -> Sinks.builder().build()).isInstanceOf(IllegalStateException.class);
    }

    private static String reasonOfRetry(SinkOutcome outcome) {
        assertThat(outcome).isInstanceOf(SinkOutcome.Retry.class);
        return ((SinkOutcome.Retry) outcome).reason();
    }
}
