package io.ankusa.queue.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.api.TraceContext;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TraceCarriersTest {

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    @DisplayName("a stored context reads back as the remote span it names and writes back the same")
    void roundTrip() {
        TraceContext stored = new TraceContext(TRACEPARENT, "vendor=abc");

        Context context = TraceCarriers.toContext(stored);

        SpanContext span = Span.fromContext(context).getSpanContext();
        assertThat(span.isRemote()).isTrue();
        assertThat(span.getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(span.getSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(span.getTraceState().get("vendor")).isEqualTo("abc");
        assertThat(TraceCarriers.fromContext(context, W3CTraceContextPropagator.getInstance())).contains(stored);
    }

    @Test
    @DisplayName("a context without a span writes no trace context")
    void noSpan() {
        assertThat(TraceCarriers.fromContext(Context.root(), W3CTraceContextPropagator.getInstance())).isEmpty();
        assertThat(TraceCarriers.fromContext(Context.root(), TextMapPropagator.noop())).isEmpty();
    }

    @Test
    @DisplayName("a propagator's own form of traceparent yields no trace context rather than a failure")
    void foreignHeader() {
        TextMapPropagator vendor = new TextMapPropagator() {
            @Override
            public List<String> fields() {
                return List.of("traceparent");
            }

            @Override
            public <C> void inject(Context context, C carrier, TextMapSetter<C> setter) {
                setter.set(carrier, "traceparent", "vendor-specific;id=42");
            }

            @Override
            public <C> Context extract(Context context, C carrier, TextMapGetter<C> getter) {
                return context;
            }
        };

        assertThat(TraceCarriers.fromContext(Context.root(), vendor)).isEmpty();
    }
}
