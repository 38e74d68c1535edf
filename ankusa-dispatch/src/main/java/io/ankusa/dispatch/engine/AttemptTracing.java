package io.ankusa.dispatch.engine;

import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.tracing.TraceCarriers;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Objects;

/**
 * One span per delivery attempt: {@code ankusa.deliver}, kind {@code CLIENT}, child of the trace
 * context stored with the hook (so the attempts of one hook, on any node and after any restart, sit
 * in the producer's trace under its {@code ankusa.ingest} span). It starts before the sink is
 * called, is current while {@code Sink.deliver} runs (the HTTP sink's {@code traceparent} header
 * and a sink's own spans nest under it) and ends once the row is settled, with the outcome, the
 * HTTP status, the sink's duration and, for a retry or a dead letter, a span event. The payload is
 * never recorded.
 *
 * <p>With {@link OpenTelemetry#noop()} {@link #enabled()} is false and the attempt path allocates
 * nothing for tracing, except for a hook stored with a trace context: that context is current while
 * the sink runs, so the HTTP sink can pass it on as {@code traceparent}.
 */
final class AttemptTracing {

    static final String DELIVER_SPAN = "ankusa.deliver";
    static final String RETRY_EVENT = "ankusa.retry_scheduled";
    static final String DEAD_EVENT = "ankusa.dead_lettered";

    static final AttributeKey<String> TENANT = AttributeKey.stringKey("ankusa.tenant");
    static final AttributeKey<Long> SINK = AttributeKey.longKey("ankusa.sink");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("ankusa.attempt");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("ankusa.outcome");
    static final AttributeKey<Double> DURATION_MS = AttributeKey.doubleKey("ankusa.attempt.duration_ms");
    static final AttributeKey<String> REASON = AttributeKey.stringKey("ankusa.reason");
    /** OpenTelemetry's messaging {@code messaging.message.id}: the hook's id. */
    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    /** OpenTelemetry's {@code messaging.system}. */
    static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    /** OpenTelemetry's HTTP {@code http.response.status_code}. */
    static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    /** OpenTelemetry's {@code error.type}. */
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private final boolean enabled;
    private final Tracer tracer;

    AttemptTracing(OpenTelemetry openTelemetry) {
        Objects.requireNonNull(openTelemetry, "openTelemetry");
        this.enabled = openTelemetry != OpenTelemetry.noop();
        this.tracer = openTelemetry.getTracer("io.ankusa");
    }

    boolean enabled() {
        return enabled;
    }

    /** Starts the attempt's span (call only when {@link #enabled()}). */
    Span start(ClaimedDelivery c) {
        Context parent = c.trace() == null ? Context.root() : TraceCarriers.toContext(c.trace());
        return tracer.spanBuilder(DELIVER_SPAN).setParent(parent).setSpanKind(SpanKind.CLIENT)
                .setAttribute(MESSAGING_SYSTEM, "ankusa")
                .setAttribute(TENANT, c.tenantId())
                .setAttribute(MESSAGE_ID, c.hookId())
                .setAttribute(SINK, (long) c.sink())
                .setAttribute(ATTEMPT, (long) c.attempt())
                .startSpan();
    }

    /** Records what the sink answered. */
    static void answered(Span span, SinkOutcome outcome, long nanos) {
        if (!span.isRecording()) {
            return;
        }
        span.setAttribute(DURATION_MS, nanos / 1e6);
        outcome.status().ifPresent(status -> span.setAttribute(HTTP_STATUS, (long) status));
        if (!(outcome instanceof SinkOutcome.Delivered)) {
            span.setAttribute(ERROR_TYPE, outcome.errorClass().name().toLowerCase(java.util.Locale.ROOT));
            span.setStatus(StatusCode.ERROR);
        }
    }

    /** Records how the row was settled (an event for a retry or a dead letter) and ends the span. */
    static void settled(Span span, Settled settled, SinkOutcome outcome, Throwable failure) {
        if (failure != null) {
            span.recordException(failure);
            span.setStatus(StatusCode.ERROR, "settle failed");
        } else {
            span.setAttribute(OUTCOME, settled.name().toLowerCase(java.util.Locale.ROOT));
            String reason = reason(outcome);
            if (settled == Settled.RETRIED) {
                span.addEvent(RETRY_EVENT, Attributes.of(REASON, reason));
            } else if (settled == Settled.DEAD) {
                span.addEvent(DEAD_EVENT, Attributes.of(REASON, reason));
            }
        }
        span.end();
    }

    private static String reason(SinkOutcome outcome) {
        if (outcome instanceof SinkOutcome.Retry r) {
            return r.reason();
        }
        if (outcome instanceof SinkOutcome.Dead d) {
            return d.reason();
        }
        if (outcome instanceof SinkOutcome.EndpointGone g) {
            return g.reason();
        }
        if (outcome instanceof SinkOutcome.EndpointDisabled e) {
            return e.reason();
        }
        return "";
    }
}
