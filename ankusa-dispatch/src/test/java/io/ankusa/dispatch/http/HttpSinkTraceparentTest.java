package io.ankusa.dispatch.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The W3C trace headers: sent from the current span only to endpoints that ask for them, against 127.0.0.1. */
class HttpSinkTraceparentTest {

    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final WebhookSecret SECRET = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN_ID = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + SPAN_ID + "-01";

    private final BlockingQueue<Headers> received = new LinkedBlockingQueue<>();
    private HttpServer server;
    private WebhookClient client;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            received.add(exchange.getRequestHeaders());
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        client = WebhookClient.builder().guard(AddressGuard.builder().allowRange("127.0.0.0/8").build()).build();
    }

    @AfterEach
    void stop() {
        client.close();
        server.stop(0);
    }

    @Test
    void anEndpointWithTraceparentOnReceivesTheCurrentSpansContext() throws Exception {
        HttpSink sink = sink(endpoint().withTraceparent(true), false);
        Span span = Span.wrap(SpanContext.createFromRemoteParent(TRACE_ID, SPAN_ID, TraceFlags.getSampled(),
                TraceState.builder().put("vendor", "v1").build()));
        assertThat(deliverIn(span, sink, delivery(Map.of()))).isEqualTo(SinkOutcome.delivered(204));
        Headers headers = received.poll(30, TimeUnit.SECONDS);
        assertThat(headers.getFirst("traceparent")).isEqualTo(TRACEPARENT);
        assertThat(headers.getFirst("tracestate")).isEqualTo("vendor=v1");
    }

    @Test
    void anEndpointWithoutItReceivesNoTraceHeaders() throws Exception {
        HttpSink sink = sink(endpoint(), false);
        assertThat(endpoint().traceparent()).as("off by default").isFalse();
        Span span = Span.wrap(SpanContext.createFromRemoteParent(TRACE_ID, SPAN_ID, TraceFlags.getSampled(),
                TraceState.getDefault()));
        assertThat(deliverIn(span, sink, delivery(Map.of()))).isEqualTo(SinkOutcome.delivered(204));
        Headers headers = received.poll(30, TimeUnit.SECONDS);
        assertThat(headers.containsKey("traceparent")).isFalse();
        assertThat(headers.containsKey("tracestate")).isFalse();
    }

    @Test
    void theSinkWideSettingSendsToEveryEndpointAndReplacesTheHooksOwnHeader() throws Exception {
        HttpSink sink = sink(endpoint(), true);
        Span span = Span.wrap(SpanContext.createFromRemoteParent(TRACE_ID, SPAN_ID, TraceFlags.getDefault(),
                TraceState.getDefault()));
        Delivery withOwn = delivery(Map.of("traceparent", "00-11111111111111111111111111111111-2222222222222222-01",
                "tracestate", "old=1"));
        assertThat(deliverIn(span, sink, withOwn)).isEqualTo(SinkOutcome.delivered(204));
        Headers headers = received.poll(30, TimeUnit.SECONDS);
        assertThat(headers.get("traceparent")).containsExactly("00-" + TRACE_ID + "-" + SPAN_ID + "-00");
        assertThat(headers.containsKey("tracestate")).as("an empty tracestate is not sent").isFalse();
    }

    @Test
    void withoutACurrentSpanNothingIsSent() throws Exception {
        HttpSink sink = sink(endpoint().withTraceparent(true), false);
        assertThat(sink.deliver(delivery(Map.of())).toCompletableFuture().get(30, TimeUnit.SECONDS))
                .isEqualTo(SinkOutcome.delivered(204));
        Headers headers = received.poll(30, TimeUnit.SECONDS);
        assertThat(headers.containsKey("traceparent")).isFalse();
    }

    private Endpoint endpoint() {
        return Endpoint.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"), SECRET);
    }

    private HttpSink sink(Endpoint endpoint, boolean everyEndpoint) {
        return HttpSink.builder((tenant, sinkNumber) -> Optional.of(endpoint)).client(client)
                .traceparent(everyEndpoint).build();
    }

    private static SinkOutcome deliverIn(Span span, HttpSink sink, Delivery delivery) throws Exception {
        Scope scope = span.makeCurrent();
        try {
            return sink.deliver(delivery).toCompletableFuture().get(30, TimeUnit.SECONDS);
        } finally {
            scope.close();
        }
    }

    private static Delivery delivery(Map<String, String> headers) {
        return new Delivery("msg_1", "billing", "acme", 0, 1, headers, "{}".getBytes(StandardCharsets.UTF_8),
                NOW.minusSeconds(60), NOW);
    }
}
