package io.ankusa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.AttemptErrorClass;
import io.ankusa.api.EndpointSettings;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.Queue;
import io.ankusa.tests.dispatch.DispatchFixture;
import io.ankusa.tests.queue.MutableClock;
import io.ankusa.tests.queue.QueueUnderTest;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One ingest and its attempts are one trace: the ingest span, a failing attempt with its retry
 * event and, after the pipeline and the queue were closed and reopened, the delivered attempt.
 */
@SuppressWarnings("try") // the scopes are used by being open
class AttemptTracingTest {

    @TempDir
    Path dir;

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider provider =
            SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    private final OpenTelemetry otel = OpenTelemetrySdk.builder().setTracerProvider(provider).build();

    @ParameterizedTest
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void oneIngestAndItsAttemptsAreOneTraceAcrossARestart(String backend) throws Exception {
        MutableClock clock = new MutableClock(QueueUnderTest.EPOCH);
        QueueConfig config = QueueConfig.builder(dir).backend(backend).clock(clock)
                .endpoints(EndpointSettings.DEFAULTS.withMaxConcurrency(Integer.MAX_VALUE)).build();
        AtomicInteger calls = new AtomicInteger();
        List<String> currentTraces = new ArrayList<>();
        Sink sink = delivery -> {
            currentTraces.add(Span.current().getSpanContext().getTraceId());
            return CompletableFuture.completedFuture(calls.incrementAndGet() == 1
                    ? new SinkOutcome.Retry(Optional.empty(), "http 503", OptionalInt.of(503), AttemptErrorClass.HTTP_5XX)
                    : SinkOutcome.delivered(200));
        };
        Span producer = otel.getTracer("test").spanBuilder("producer request").startSpan();
        try (Queue queue = Queue.open(config, otel)) {
            try (var scope = producer.makeCurrent()) {
                queue.ingest(Hook.builder().id("h1").sourceId("s").tenantId("acme").payload("secret").sinks(0)
                        .build()).get();
            }
            try (Pipeline pipeline = Pipeline.builder(queue, sink).openTelemetry(otel).manual()) {
                DispatchFixture.await(pipeline.tick());
            }
        }
        producer.end();
        clock.advance(3_600_000);
        try (Queue queue = Queue.open(config, otel);
                Pipeline pipeline = Pipeline.builder(queue, sink).openTelemetry(otel).manual()) {
            DispatchFixture.await(pipeline.tick());
        }
        assertThat(calls).hasValue(2);

        List<SpanData> spans = exporter.getFinishedSpanItems();
        String trace = producer.getSpanContext().getTraceId();
        assertThat(spans).extracting(SpanData::getTraceId).containsOnly(trace);
        SpanData ingest = only(spans, "ankusa.ingest");
        assertThat(ingest.getParentSpanId()).isEqualTo(producer.getSpanContext().getSpanId());
        assertThat(ingest.getKind()).isEqualTo(SpanKind.PRODUCER);
        assertThat(ingest.getAttributes().get(AttributeKey.stringKey("ankusa.tenant"))).isEqualTo("acme");
        List<SpanData> attempts = spans.stream().filter(s -> s.getName().equals("ankusa.deliver")).toList();
        assertThat(attempts).hasSize(2).allSatisfy(a -> {
            assertThat(a.getParentSpanId()).isEqualTo(ingest.getSpanId());
            assertThat(a.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(a.getAttributes().asMap().values()).noneMatch(v -> String.valueOf(v).contains("secret"));
        });
        SpanData first = attempts.stream().filter(a -> attempt(a) == 1).findFirst().orElseThrow();
        SpanData second = attempts.stream().filter(a -> attempt(a) == 2).findFirst().orElseThrow();
        assertThat(first.getAttributes().get(AttributeKey.stringKey("ankusa.outcome"))).isEqualTo("retried");
        assertThat(first.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(503L);
        assertThat(first.getEvents()).extracting(EventData::getName).containsExactly("ankusa.retry_scheduled");
        assertThat(second.getAttributes().get(AttributeKey.stringKey("ankusa.outcome"))).isEqualTo("delivered");
        assertThat(second.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(200L);
        assertThat(second.getEvents()).isEmpty();
        assertThat(currentTraces).as("the attempt span is current in the sink").containsExactly(trace, trace);
        System.out.println(TraceDump.of(spans));
    }

    @ParameterizedTest
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void withoutOpenTelemetryNothingIsTracedOrStored(String backend) throws Exception {
        QueueConfig config = QueueConfig.builder(dir).backend(backend).build();
        List<Boolean> current = new ArrayList<>();
        Sink sink = delivery -> {
            current.add(Span.current().getSpanContext().isValid());
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        };
        Span producer = otel.getTracer("test").spanBuilder("producer request").startSpan();
        try (Queue queue = Queue.open(config); Pipeline pipeline = Pipeline.builder(queue, sink).manual()) {
            try (var scope = producer.makeCurrent()) {
                queue.ingest(Hook.builder().id("h1").sourceId("s").sinks(0).build()).get();
            }
            DispatchFixture.await(pipeline.tick());
        }
        producer.end();
        assertThat(current).containsExactly(false);
        assertThat(exporter.getFinishedSpanItems()).extracting(SpanData::getName).containsExactly("producer request");
    }

    @ParameterizedTest
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void thePipelineTracesWithTheQueuesOpenTelemetryByDefault(String backend) throws Exception {
        QueueConfig config = QueueConfig.builder(dir).backend(backend).build();
        Sink sink = delivery -> CompletableFuture.completedFuture(SinkOutcome.delivered());
        Span producer = otel.getTracer("test").spanBuilder("producer request").startSpan();
        try (Queue queue = Queue.open(config, otel); Pipeline pipeline = Pipeline.builder(queue, sink).manual()) {
            try (var scope = producer.makeCurrent()) {
                queue.ingest(Hook.builder().id("h1").sourceId("s").sinks(0).build()).get();
            }
            DispatchFixture.await(pipeline.tick());
        }
        producer.end();
        SpanData attempt = only(exporter.getFinishedSpanItems(), "ankusa.deliver");
        assertThat(attempt.getTraceId()).isEqualTo(producer.getSpanContext().getTraceId());
        assertThat(attempt.getParentSpanId()).isEqualTo(only(exporter.getFinishedSpanItems(), "ankusa.ingest").getSpanId());
    }

    @ParameterizedTest
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void anUntracedPipelineMakesTheStoredContextCurrentInTheSink(String backend) throws Exception {
        QueueConfig config = QueueConfig.builder(dir).backend(backend).build();
        List<String> current = new ArrayList<>();
        Sink sink = delivery -> {
            current.add(Span.current().getSpanContext().getTraceId());
            return CompletableFuture.completedFuture(SinkOutcome.delivered());
        };
        Span producer = otel.getTracer("test").spanBuilder("producer request").startSpan();
        try (Queue queue = Queue.open(config, otel);
                Pipeline pipeline = Pipeline.builder(queue, sink).openTelemetry(OpenTelemetry.noop()).manual()) {
            try (var scope = producer.makeCurrent()) {
                queue.ingest(Hook.builder().id("h1").sourceId("s").sinks(0).build()).get();
            }
            DispatchFixture.await(pipeline.tick());
        }
        producer.end();
        assertThat(current).containsExactly(producer.getSpanContext().getTraceId());
        assertThat(exporter.getFinishedSpanItems()).extracting(SpanData::getName).doesNotContain("ankusa.deliver");
    }

    private static long attempt(SpanData span) {
        return span.getAttributes().get(AttributeKey.longKey("ankusa.attempt"));
    }

    private static SpanData only(List<SpanData> spans, String name) {
        List<SpanData> named = spans.stream().filter(s -> s.getName().equals(name)).toList();
        assertThat(named).hasSize(1);
        return named.get(0);
    }

    /** A text dump of a trace: one line per span, ids shortened to 8 digits, attributes and events. */
    static final class TraceDump {
        static String of(List<SpanData> spans) {
            StringBuilder out = new StringBuilder();
            spans.stream().sorted(java.util.Comparator.comparingLong(SpanData::getStartEpochNanos)).forEach(s -> {
                out.append(s.getName()).append(" [").append(s.getKind()).append("] trace=")
                        .append(s.getTraceId(), 0, 8).append(" span=").append(s.getSpanId(), 0, 8)
                        .append(" parent=").append(s.getParentSpanId(), 0, 8).append('\n');
                s.getAttributes().forEach((k, v) -> out.append("    ").append(k.getKey()).append(" = ").append(v)
                        .append('\n'));
                s.getEvents().forEach(e -> out.append("    event ").append(e.getName()).append(' ')
                        .append(e.getAttributes().asMap()).append('\n'));
            });
            return out.toString();
        }
    }
}
