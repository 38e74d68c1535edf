package io.ankusa.dispatch.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.EndpointSettings;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.WebhookClient;
import io.ankusa.dispatch.http.WebhookSecret;
import io.ankusa.dispatch.report.TickReport;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.dispatch.sink.Sinks;
import io.ankusa.tests.dispatch.DispatchFixture;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where the per-endpoint concurrency limit comes from with the default settings
 * ({@link EndpointSettings#SINK_CONCURRENCY}): the limit the endpoint's sink declares
 * ({@link Sink#endpointConcurrency()}), none for an in-process sink, the client's per-host
 * connection limit for the HTTP sink; {@code endpoint.max-concurrency} still overrides it.
 */
class EndpointConcurrencyTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @TempDir
    Path dir;

    /** Holds every attempt until {@link #release()}; declares {@code declared} per endpoint. */
    private static final class HoldingSink implements Sink {
        private final int declared;
        private final List<CompletableFuture<SinkOutcome>> held = new CopyOnWriteArrayList<>();

        HoldingSink(int declared) {
            this.declared = declared;
        }

        @Override
        public CompletionStage<SinkOutcome> deliver(Delivery delivery) {
            CompletableFuture<SinkOutcome> answer = new CompletableFuture<>();
            held.add(answer);
            return answer;
        }

        @Override
        public int endpointConcurrency() {
            return declared;
        }

        int held() {
            return held.size();
        }

        void release() {
            held.forEach(a -> a.complete(SinkOutcome.delivered()));
        }
    }

    /** Ingests {@code n} hooks of tenant acme to sink 0, ticks once, and returns how many the sink holds. */
    private int heldAfterOneTick(DispatchFixture f, HoldingSink sink, Sink pipelineSink, int n) {
        for (int i = 0; i < n; i++) {
            f.ingest("acme-" + i, "acme", 0);
        }
        try (Pipeline p = f.pipeline(pipelineSink, b -> b.concurrency(256))) {
            CompletionStage<TickReport> tick = p.tick();
            int held = sink.held();
            sink.release();
            DispatchFixture.await(tick);
            return held;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anInProcessSinkHasNoPerEndpointLimitByDefault(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.endpoints(EndpointSettings.DEFAULTS))) {
            HoldingSink sink = new HoldingSink(Sink.UNBOUNDED);
            assertThat(heldAfterOneTick(f, sink, sink, 40)).as("one endpoint's attempts at once").isEqualTo(40);
            f.assertConsistent();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void theLimitIsWhatTheEndpointsSinkDeclaresUnlessEndpointMaxConcurrencySetsOne(String backend) {
        try (DispatchFixture f = DispatchFixture.open(backend, dir, b -> b.endpoints(EndpointSettings.DEFAULTS))) {
            HoldingSink sink = new HoldingSink(3);
            assertThat(heldAfterOneTick(f, sink, Sinks.builder().sink(0, sink).build(), 40))
                    .as("through the router: sink 0 declares 3").isEqualTo(3);
        }
        try (DispatchFixture f = DispatchFixture.open(backend, dir.resolve("configured"),
                b -> b.endpoints(EndpointSettings.DEFAULTS.withMaxConcurrency(5)))) {
            HoldingSink sink = new HoldingSink(3);
            assertThat(heldAfterOneTick(f, sink, sink, 40)).as("endpoint.max-concurrency 5 overrides the sink's 3").isEqualTo(5);
        }
    }

    @Test
    void theHttpSinkDeclaresItsClientsPerHostConnectionLimit() {
        URI url = URI.create("http://127.0.0.1:9/hooks");
        try (HttpSink own = HttpSink.builder(url, WebhookSecret.parse(SECRET)).build();
                WebhookClient client = WebhookClient.builder().guard(AddressGuard.builder().allowRange("127.0.0.1").build())
                        .maxConnectionsPerHost(5).build();
                HttpSink shared = HttpSink.builder(url, WebhookSecret.parse(SECRET)).client(client).build()) {
            assertThat(own.endpointConcurrency()).as("the default client's 16").isEqualTo(16);
            assertThat(shared.endpointConcurrency()).isEqualTo(5);
            assertThat(Sinks.builder().sink(2, shared).build().endpointConcurrency(2)).isEqualTo(5);
            assertThat(Sinks.builder().sink(2, shared).build().endpointConcurrency(3)).as("no sink 3").isEqualTo(Sink.UNBOUNDED);
        }
    }
}
