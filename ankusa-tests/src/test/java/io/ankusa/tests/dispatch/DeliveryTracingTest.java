package io.ankusa.tests.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.ankusa.api.Hook;
import io.ankusa.api.QueueConfig;
import io.ankusa.dispatch.Pipeline;
import io.ankusa.dispatch.http.AddressGuard;
import io.ankusa.dispatch.http.Endpoint;
import io.ankusa.dispatch.http.HttpSink;
import io.ankusa.dispatch.http.WebhookSecret;
import io.ankusa.queue.Queue;
import io.ankusa.tests.queue.MutableClock;
import io.ankusa.tests.queue.QueueUnderTest;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One ingest and its HTTP deliveries are one trace (docs/operations.md, "Traces"): the ingest span
 * and every attempt span, across a pipeline and queue restart between a 503 and a 200, with the
 * {@code traceparent} header sent only to the endpoint that asks for it. Against a real HTTP
 * receiver on 127.0.0.1; the pipeline traces with the queue's OpenTelemetry, given to nothing else.
 */
class DeliveryTracingTest {

    private static final WebhookSecret SECRET = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    /** "(none)" when a request had no traceparent. */
    private static final String NONE = "(none)";

    @TempDir
    Path dir;

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetry otel = OpenTelemetrySdk.builder().setTracerProvider(
            SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();

    private HttpServer server;
    private ExecutorService handlers;
    private final AtomicInteger tracedCalls = new AtomicInteger();
    private final List<String> tracedHeaders = new CopyOnWriteArrayList<>();
    private final List<String> plainHeaders = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startReceiver() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/traced", e -> {
            e.getRequestBody().readAllBytes();
            tracedHeaders.add(Optional.ofNullable(e.getRequestHeaders().getFirst("traceparent")).orElse(NONE));
            e.sendResponseHeaders(tracedCalls.getAndIncrement() == 0 ? 503 : 200, -1);
            e.close();
        });
        server.createContext("/plain", e -> {
            e.getRequestBody().readAllBytes();
            plainHeaders.add(Optional.ofNullable(e.getRequestHeaders().getFirst("traceparent")).orElse(NONE));
            e.sendResponseHeaders(200, -1);
            e.close();
        });
        server.start();
    }

    @AfterEach
    void stopReceiver() {
        server.stop(0);
        handlers.shutdownNow();
    }

    /** Sink 0 goes to "/traced" with the traceparent header on, sink 1 to "/plain" with it off. */
    private HttpSink sink() {
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        Endpoint traced = Endpoint.of(URI.create(base + "/traced"), SECRET).withTraceparent(true);
        Endpoint plain = Endpoint.of(URI.create(base + "/plain"), SECRET);
        return HttpSink.builder((tenant, sink) -> Optional.of(sink == 0 ? traced : plain))
                .guard(AddressGuard.builder().allowRange("127.0.0.1").build()) // the local receiver, on purpose
                .requestTimeout(Duration.ofSeconds(30)).build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ankusa.tests.queue.Backends#names")
    void oneIngestAndItsHttpAttemptsAreOneTraceAcrossARestart(String backend) throws Exception {
        MutableClock clock = new MutableClock(QueueUnderTest.EPOCH);
        QueueConfig config = QueueConfig.builder(dir).backend(backend).clock(clock).build();
        Span producer = otel.getTracer("test").spanBuilder("producer request").startSpan();
        try (Queue queue = Queue.open(config, otel); HttpSink sink = sink();
                Pipeline pipeline = Pipeline.builder(queue, sink).manual()) {
            Scope scope = producer.makeCurrent();
            try {
                queue.ingest(Hook.builder().id("msg_1").sourceId("shop").tenantId("acme").payload("{}").sinks(0, 1)
                        .build()).get();
            } finally {
                scope.close();
            }
            DispatchFixture.await(pipeline.tick());
        }
        producer.end();
        assertThat(tracedHeaders).as("the first attempt, answered 503").hasSize(1);
        clock.advance(3_600_000);
        try (Queue queue = Queue.open(config, otel); HttpSink sink = sink();
                Pipeline pipeline = Pipeline.builder(queue, sink).manual()) {
            DispatchFixture.await(pipeline.tick());
        }
        assertThat(tracedCalls).as("503, then 200 after the restart").hasValue(2);

        String trace = producer.getSpanContext().getTraceId();
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertThat(spans).extracting(SpanData::getTraceId).containsOnly(trace);
        List<SpanData> ingests = spans.stream().filter(s -> s.getName().equals("ankusa.ingest")).toList();
        assertThat(ingests).hasSize(1);
        List<SpanData> attempts = spans.stream().filter(s -> s.getName().equals("ankusa.deliver")).toList();
        assertThat(attempts).as("two to sink 0, one to sink 1").hasSize(3)
                .allSatisfy(a -> assertThat(a.getParentSpanId()).isEqualTo(ingests.get(0).getSpanId()));
        List<String> sinkZeroAttempts = attempts.stream()
                .filter(a -> a.getAttributes().get(AttributeKey.longKey("ankusa.sink")) == 0L)
                .sorted((a, b) -> Long.compare(a.getAttributes().get(AttributeKey.longKey("ankusa.attempt")),
                        b.getAttributes().get(AttributeKey.longKey("ankusa.attempt"))))
                .map(a -> "00-" + trace + "-" + a.getSpanId()).toList();
        // The flags after the span id: sampled (bit 0), and the SDK may set the random trace id bit too.
        assertThat(tracedHeaders).as("each request names its attempt's span in the ingest's trace")
                .allSatisfy(h -> assertThat(Integer.parseInt(h.substring(53), 16) & 1).as(h).isEqualTo(1))
                .extracting(h -> h.substring(0, 52)).containsExactlyElementsOf(sinkZeroAttempts);
        assertThat(plainHeaders).as("an endpoint without the setting gets no traceparent").containsExactly(NONE);
    }
}
