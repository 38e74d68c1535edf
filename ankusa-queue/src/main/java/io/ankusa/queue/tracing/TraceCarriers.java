package io.ankusa.queue.tracing;

import io.ankusa.api.InvalidTraceContextException;
import io.ankusa.api.TraceContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Converts between a stored {@link TraceContext} and an OpenTelemetry {@link Context}.
 *
 * <p>Reading a stored context needs no SDK: the W3C propagator of the API turns it into a remote
 * span context, so a hook's attempts join its trace whatever OpenTelemetry is configured. Writing
 * one goes through a propagator; a header the propagator writes in a form {@link TraceContext}
 * refuses (a vendor's extension) yields no context rather than a refused hook.
 */
public final class TraceCarriers {

    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";

    private TraceCarriers() {
    }

    /**
     * The parent context a stored trace context stands for: the remote span it names.
     *
     * @param trace the stored trace context
     * @return a context holding the remote span
     */
    public static Context toContext(TraceContext trace) {
        Map<String, String> carrier = trace.tracestate().isEmpty() ? Map.of(TRACEPARENT, trace.traceparent())
                : Map.of(TRACEPARENT, trace.traceparent(), TRACESTATE, trace.tracestate());
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), carrier, MapGetter.INSTANCE);
    }

    /**
     * The W3C form of {@code context} as {@code propagator} writes it.
     *
     * @param context    the context to write, such as {@link Context#current()}
     * @param propagator the propagator that writes it
     * @return the trace context, or empty when the propagator writes no {@code traceparent} or one
     *         that is not W3C
     */
    public static Optional<TraceContext> fromContext(Context context, TextMapPropagator propagator) {
        Map<String, String> carrier = new HashMap<>(4);
        propagator.inject(context, carrier, MapSetter.INSTANCE);
        String traceparent = carrier.get(TRACEPARENT);
        if (traceparent == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new TraceContext(traceparent, carrier.getOrDefault(TRACESTATE, "")));
        } catch (InvalidTraceContextException e) {
            return Optional.empty();
        }
    }

    /** Writes a propagator's fields into a map. */
    private enum MapSetter implements TextMapSetter<Map<String, String>> {
        INSTANCE;

        @Override
        public void set(Map<String, String> carrier, String key, String value) {
            if (carrier != null) {
                carrier.put(key, value);
            }
        }
    }

    /** Reads a propagator's fields from a map. */
    private enum MapGetter implements TextMapGetter<Map<String, String>> {
        INSTANCE;

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    }
}
