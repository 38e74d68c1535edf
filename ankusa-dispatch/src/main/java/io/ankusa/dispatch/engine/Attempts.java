package io.ankusa.dispatch.engine;

import io.ankusa.api.AttemptErrorClass;
import io.ankusa.api.events.AttemptFinished;
import io.ankusa.dispatch.sink.Delivery;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.queue.events.EventHub;
import io.ankusa.queue.ledger.ClaimedDelivery;
import io.ankusa.queue.tracing.TraceCarriers;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * Runs claimed deliveries through the sink with bounded concurrency and a deadline, and hands each
 * outcome to the {@link Settler}.
 *
 * <p>A slot is taken per claimed delivery and given back once its row is settled, so at most
 * {@code concurrency} rows are claimed and unsettled at any time; the tick claims no more rows than
 * there are free slots, so nothing claimed waits in memory for a sink. A sink that throws, returns
 * no stage, fails it or completes it without an outcome costs a retry; one that does not complete
 * within the deadline is settled as a retry ({@value #TIMEOUT}) and its late outcome is ignored.
 */
final class Attempts {

    /** Reason prefix of a retry for a sink that gave no outcome in time. */
    static final String TIMEOUT = "sink_timeout";
    /** Reason prefix of a retry for a sink that broke its contract. */
    static final String FAILED = "sink_failed";

    private final Sink sink;
    private final Semaphore slots;
    private final int concurrency;
    private final Duration deadline;
    private final InstantSource clock;
    private final Settler settler;
    private final Runnable onSlotFreed;
    private final EventHub events;
    private final EndpointGate gate;
    private final LongSupplier nanoTime;
    private final SinkPulse pulse;
    private final TenantFailures failures;
    private final AttemptTracing tracing;

    Attempts(Sink sink, int concurrency, Duration deadline, InstantSource clock, Settler settler, Runnable onSlotFreed,
            EventHub events, EndpointGate gate, LongSupplier nanoTime) {
        this(sink, concurrency, deadline, clock, settler, onSlotFreed, events, gate, nanoTime,
                new AttemptTracing(OpenTelemetry.noop()));
    }

    Attempts(Sink sink, int concurrency, Duration deadline, InstantSource clock, Settler settler, Runnable onSlotFreed,
            EventHub events, EndpointGate gate, LongSupplier nanoTime, AttemptTracing tracing) {
        this.tracing = Objects.requireNonNull(tracing, "tracing");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.events = Objects.requireNonNull(events, "events");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.concurrency = concurrency;
        this.slots = new Semaphore(concurrency);
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settler = Objects.requireNonNull(settler, "settler");
        this.onSlotFreed = Objects.requireNonNull(onSlotFreed, "onSlotFreed");
        this.pulse = new SinkPulse(nanoTime);
        this.failures = new TenantFailures(nanoTime);
    }

    /** Recent attempts and failures per tenant. */
    TenantFailures failures() {
        return failures;
    }

    /** Whether the sink still answers. */
    SinkPulse pulse() {
        return pulse;
    }

    /** Slots free now: the most rows a tick may claim. */
    int freeSlots() {
        return slots.availablePermits();
    }

    /** Deliveries claimed and not yet settled. */
    int busySlots() {
        return concurrency - slots.availablePermits();
    }

    /**
     * Starts every delivery of {@code claimed} (the caller claimed no more than {@link #freeSlots()});
     * the futures complete when each row is settled.
     */
    List<CompletableFuture<Settled>> start(List<ClaimedDelivery> claimed) {
        if (!slots.tryAcquire(claimed.size())) {
            throw new IllegalStateException("claimed " + claimed.size() + " deliveries with " + freeSlots()
                    + " free slots");
        }
        Instant attemptedAt = clock.instant();
        List<CompletableFuture<Settled>> settled = new ArrayList<>(claimed.size());
        for (ClaimedDelivery c : claimed) {
            long startNanos = System.nanoTime();
            // Null on the untraced path: nothing is allocated for tracing there.
            Span span = tracing.enabled() ? tracing.start(c) : null;
            Optional<SinkOutcome> instead = gate.shortCircuit(c.row().ord(), c.sink());
            CompletableFuture<SinkOutcome> answer;
            if (instead.isPresent()) {
                answer = CompletableFuture.completedFuture(instead.get());
            } else if (span == null && c.trace() == null) {
                answer = outcomeOf(c, attemptedAt);
            } else {
                // Untraced, the hook's stored context is current instead, for the sink's traceparent.
                Scope scope = span != null ? span.makeCurrent() : TraceCarriers.toContext(c.trace()).makeCurrent();
                try {
                    answer = outcomeOf(c, attemptedAt);
                } finally {
                    scope.close();
                }
            }
            CompletableFuture<Settled> done = answer.thenCompose(outcome -> {
                long nanos = System.nanoTime() - startNanos;
                if (span != null) {
                    AttemptTracing.answered(span, outcome, nanos);
                }
                // The endpoint's slot goes back and the outcome feeds its pause and breaker before
                // the settle commits, so the next tick already sees them.
                gate.answered(c.row().ord(), c.sink(), outcome, nanoTime.getAsLong());
                failures.ended(c.row().ord(), outcome);
                if (events.active()) {
                    AttemptFinished finished = AttemptEvents.finished(c, outcome, nanos);
                    events.publish(l -> l.onAttemptFinished(finished));
                }
                CompletableFuture<Settled> settle =
                        settler.settle(c, outcome, AttemptEvents.record(c, outcome, attemptedAt.toEpochMilli(), nanos));
                if (span != null) {
                    settle.whenComplete((how, failure) -> AttemptTracing.settled(span, how, outcome, failure));
                }
                return settle;
            });
            done.whenComplete((result, failure) -> {
                slots.release();
                onSlotFreed.run();
            });
            settled.add(done);
        }
        return settled;
    }

    /** Waits up to {@code timeout} for every slot to be free again (every started row settled). */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        if (!slots.tryAcquire(concurrency, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return false;
        }
        slots.release(concurrency);
        return true;
    }

    private CompletableFuture<SinkOutcome> outcomeOf(ClaimedDelivery c, Instant attemptedAt) {
        CompletableFuture<SinkOutcome> outcome = new CompletableFuture<>();
        CompletionStage<SinkOutcome> stage;
        try {
            stage = sink.deliver(delivery(c, attemptedAt));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(SinkOutcome.retry(FAILED + ": threw " + e,
                    AttemptErrorClass.SINK_FAILED));
        }
        if (stage == null) {
            return CompletableFuture.completedFuture(SinkOutcome.retry(FAILED + ": returned no stage",
                    AttemptErrorClass.SINK_FAILED));
        }
        stage.whenComplete((result, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                outcome.complete(SinkOutcome.retry(FAILED + ": stage failed with " + cause,
                        AttemptErrorClass.SINK_FAILED));
            } else if (result == null) {
                outcome.complete(SinkOutcome.retry(FAILED + ": stage completed without an outcome",
                        AttemptErrorClass.SINK_FAILED));
            } else {
                outcome.complete(result);
            }
            pulse.outcome();
        });
        return outcome.orTimeout(deadline.toMillis(), TimeUnit.MILLISECONDS).exceptionally(failure -> {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                    : failure;
            if (cause instanceof TimeoutException) {
                pulse.missedDeadline();
                return SinkOutcome.retry(TIMEOUT + ": no outcome within " + deadline, AttemptErrorClass.SINK_TIMEOUT);
            }
            return SinkOutcome.retry(FAILED + ": " + cause, AttemptErrorClass.SINK_FAILED);
        });
    }

    private static Delivery delivery(ClaimedDelivery c, Instant attemptedAt) {
        return new Delivery(c.hookId(), c.sourceId(), c.tenantId(), c.sink(), c.attempt(), c.headers(), c.payload(),
                Instant.ofEpochMilli(c.receivedAt()), attemptedAt);
    }
}
