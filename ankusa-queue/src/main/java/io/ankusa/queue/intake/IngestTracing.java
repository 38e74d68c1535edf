package io.ankusa.queue.intake;

import io.ankusa.api.AnkusaException;
import io.ankusa.api.Hook;
import io.ankusa.api.Receipt;
import io.ankusa.api.TraceContext;
import io.ankusa.queue.tracing.TraceCarriers;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The trace side of {@code ingest}: which trace context is stored with a hook, and the
 * {@code ankusa.ingest} span around its commit.
 *
 * <p>The context stored is, in order: the {@code ankusa.ingest} span's own (so the delivery
 * attempts become its children, in the producer's trace), else the hook's
 * {@link Hook#traceContext()}, else the caller's {@link Context#current()} as the configured
 * propagator writes it. The span's parent is the hook's trace context when it has one (a hook that
 * crossed a process boundary, a Kafka hop), the caller's current context otherwise. The span
 * starts on the caller's thread and ends when the receipt's future completes: after the synced
 * commit that holds the hook, or with the refusal.
 *
 * <p>With {@link OpenTelemetry#noop()} nothing of this runs: {@link #enabled()} is false and the
 * queue stores the hook's own context, if any, and allocates nothing for tracing.
 */
public final class IngestTracing {

    /** The instrumentation scope's name. */
    public static final String SCOPE = "io.ankusa";

    /** The span around one hook's ingest. */
    public static final String INGEST_SPAN = "ankusa.ingest";

    /** The tenant a hook is filed under. */
    public static final AttributeKey<String> TENANT = AttributeKey.stringKey("ankusa.tenant");
    /** How many hooks the span covers. */
    public static final AttributeKey<Long> HOOK_COUNT = AttributeKey.longKey("ankusa.hook.count");
    /** How many deliveries (sinks) the hook fans out to. */
    public static final AttributeKey<Long> SINK_COUNT = AttributeKey.longKey("ankusa.sink.count");
    /** The hook's id: OpenTelemetry's messaging {@code messaging.message.id}. */
    public static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    /** OpenTelemetry's {@code messaging.system}: {@code ankusa}. */
    public static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    /** OpenTelemetry's {@code error.type}: a refusal's machine-readable reason. */
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private final OpenTelemetry openTelemetry;
    private final boolean enabled;
    private final Tracer tracer;

    private IngestTracing(OpenTelemetry openTelemetry) {
        this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
        // The one object OpenTelemetry.noop() returns: no tracer, no propagator, nothing to do.
        this.enabled = openTelemetry != OpenTelemetry.noop();
        this.tracer = openTelemetry.getTracer(SCOPE);
    }

    /** {@return the ingest side of tracing over {@code openTelemetry}} */
    public static IngestTracing of(OpenTelemetry openTelemetry) {
        return new IngestTracing(openTelemetry);
    }

    /** {@return the OpenTelemetry this queue traces with} */
    public OpenTelemetry openTelemetry() {
        return openTelemetry;
    }

    /** {@return whether anything is traced or captured (false for {@link OpenTelemetry#noop()})} */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Starts the ingest span of {@code hook} (call only when {@link #enabled()}).
     *
     * @param hook the hook about to be handed to the writer
     * @return the span and the context to store with the hook
     */
    public Ingest begin(Hook hook) {
        Context parent = hook.traceContext().map(TraceCarriers::toContext).orElseGet(Context::current);
        Span span = tracer.spanBuilder(INGEST_SPAN).setParent(parent).setSpanKind(SpanKind.PRODUCER)
                .setAttribute(MESSAGING_SYSTEM, "ankusa")
                .setAttribute(TENANT, hook.tenant())
                .setAttribute(MESSAGE_ID, hook.id())
                .setAttribute(HOOK_COUNT, 1L)
                .setAttribute(SINK_COUNT, (long) hook.sinks().size())
                .startSpan();
        TraceContext stored;
        if (span.getSpanContext().isValid()) {
            stored = TraceCarriers.fromContext(Context.root().with(span), W3CTraceContextPropagator.getInstance())
                    .orElse(null);
        } else if (hook.traceContext().isPresent()) {
            stored = hook.traceContext().get();
        } else {
            stored = TraceCarriers.fromContext(parent, openTelemetry.getPropagators().getTextMapPropagator())
                    .orElse(null);
        }
        return new Ingest(span, stored);
    }

    /**
     * One hook's ingest span and the trace context stored with the hook.
     *
     * @param span   the {@code ankusa.ingest} span, started
     * @param stored the trace context to store, or null for none
     */
    public record Ingest(Span span, TraceContext stored) {

        /**
         * Ends the span when {@code receipt} completes: with an error status and {@code error.type}
         * when the hook was refused.
         *
         * @param receipt the writer's future of the hook's receipt
         * @return a future completed as {@code receipt} is, once the span has ended
         */
        public CompletableFuture<Receipt> endWith(CompletableFuture<Receipt> receipt) {
            // A future of its own, completed after the span ended, so whoever sees the receipt sees
            // the span ended too; the refusal is passed on as it is, not wrapped.
            CompletableFuture<Receipt> ended = new CompletableFuture<>();
            receipt.whenComplete((r, failure) -> {
                if (failure != null) {
                    Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                            ? failure.getCause() : failure;
                    span.setAttribute(ERROR_TYPE, cause instanceof AnkusaException a ? a.error()
                            : cause.getClass().getName());
                    span.setStatus(StatusCode.ERROR, String.valueOf(cause.getMessage()));
                    span.end();
                    ended.completeExceptionally(failure);
                } else {
                    span.end();
                    ended.complete(r);
                }
            });
            return ended;
        }
    }
}
