package io.ankusa.dispatch.engine;

import io.ankusa.api.EndpointSettings;
import io.ankusa.dispatch.sink.Sink;
import io.ankusa.dispatch.sink.SinkOutcome;
import io.ankusa.dispatch.sink.Sinks;
import io.ankusa.queue.ledger.DueRow;
import io.ankusa.queue.ledger.EndpointLedger;
import io.ankusa.queue.ledger.EndpointLimits;
import io.ankusa.queue.ledger.EndpointRow;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntUnaryOperator;

/**
 * The pipeline's {@link EndpointGate}: per endpoint {@code (tenant, sink)}, in this order,
 *
 * <ol>
 *   <li><b>disabled</b> (the stored state, {@link EndpointLedger}): its rows wait
 *       ({@link #UNTIL_CHANGED}) or, with {@link EndpointSettings.DisabledPolicy#DEAD_LETTER}, are
 *       admitted and {@link #shortCircuit short-circuited} to an {@code endpoint_disabled} dead
 *       letter without a request;</li>
 *   <li><b>paused</b> by a retry-after hint (a {@code Retry-After} on 429 or 503): nothing of the
 *       endpoint goes out before the hint's time (at most {@link #MAX_PAUSE});</li>
 *   <li><b>circuit breaker</b>: after {@code breakerFailures} consecutive retryable failures (a
 *       {@code Dead} outcome, a verdict on one delivery, neither counts nor resets) it opens
 *       for {@code breakerInterval}; then it is half-open and admits one probe; the probe's success
 *       closes it, its failure opens it for another interval — a dead endpoint costs one attempt
 *       per interval, not one (time-out) per row;</li>
 *   <li><b>concurrency</b>: at most {@code maxConcurrency} admitted and unanswered rows; with
 *       {@link EndpointSettings#SINK_CONCURRENCY} (the default), the limit the endpoint's sink
 *       declares ({@link Sink#endpointConcurrency()}), none for a sink that declares
 *       {@link Sink#UNBOUNDED}; a registered endpoint's own in-flight limit
 *       ({@code EndpointSpec.maxInflight()}, 0 for none) caps it further: the smaller applies.
 *       The own limit is read from the registry's snapshot and kept until the registry changes
 *       ({@link OwnLimits}), so a changed limit applies to rows admitted after the change.</li>
 * </ol>
 *
 * <p>Pause, breaker and in-flight counts are in memory only: a restarted pipeline starts every
 * endpoint closed and unpaused. An endpoint with nothing to remember (no slot taken, no failure,
 * no pause) is dropped from memory, so memory follows the endpoints in trouble or in use.
 */
final class EndpointAdmission implements EndpointGate {

    /** The longest pause a hint can cause: the default retry policy's largest honoured hint (1 h). */
    static final Duration MAX_PAUSE = Duration.ofHours(1);

    /** One endpoint's in-memory health; guarded by itself. */
    private static final class Health {
        int inflight;
        long pausedUntil;
        int consecutiveFailures;
        /** 0 when closed; when open, the time it becomes half-open. */
        long openUntil;
        boolean probing;
        boolean breakerOpen;

        boolean forgettable(long nowNanos) {
            return inflight == 0 && consecutiveFailures == 0 && !breakerOpen && pausedUntil - nowNanos <= 0;
        }
    }

    private final EndpointLedger states;
    private final EndpointSettings settings;
    private final long intervalNanos;
    private final IntUnaryOperator sinkConcurrency;
    private final OwnLimits ownLimits;
    private final ConcurrentHashMap<Long, Health> health = new ConcurrentHashMap<>();

    /**
     * @param states          the stored endpoint states
     * @param settings        the queue's endpoint settings
     * @param sinkConcurrency per sink number, the limit its sink declares ({@link Sink#UNBOUNDED} for none);
     *                        asked only when {@code settings} leave the limit to the sink
     * @param limits          the registered endpoints' own in-flight limits
     */
    EndpointAdmission(EndpointLedger states, EndpointSettings settings, IntUnaryOperator sinkConcurrency,
            EndpointLimits limits) {
        this.states = Objects.requireNonNull(states, "states");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.intervalNanos = settings.breakerInterval().toNanos();
        int configured = settings.maxConcurrency();
        Objects.requireNonNull(sinkConcurrency, "sinkConcurrency");
        this.sinkConcurrency = configured == EndpointSettings.SINK_CONCURRENCY ? sinkConcurrency : sink -> configured;
        this.ownLimits = new OwnLimits(limits);
    }

    /**
     * The limit for the sinks of {@code sink}: a {@link Sinks} router's numbered sinks each declare
     * their own, any other sink declares one for every number.
     *
     * @param sink the pipeline's sink
     * @return per sink number, the limit that sink declares
     */
    static IntUnaryOperator declaredBy(Sink sink) {
        if (sink instanceof Sinks router) {
            return router::endpointConcurrency;
        }
        int limit = sink.endpointConcurrency();
        return number -> limit;
    }

    @Override
    public long admit(DueRow row, long nowNanos) {
        EndpointRow state = states.get(row.ord(), row.sink());
        boolean deadLetter = false;
        if (state.disabled()) {
            if (settings.disabledPolicy() == EndpointSettings.DisabledPolicy.WAIT) {
                return UNTIL_CHANGED;
            }
            deadLetter = true;
        }
        long id = EndpointRow.idOf(row.ord(), row.sink());
        int own = deadLetter ? EndpointLimits.NONE : ownLimits.of(id, row.ord(), row.sink());
        int limit = own == EndpointLimits.NONE ? sinkConcurrency.applyAsInt(row.sink())
                : Math.min(own, sinkConcurrency.applyAsInt(row.sink()));
        while (true) {
            Health h = health.computeIfAbsent(id, k -> new Health());
            synchronized (h) {
                if (health.get(id) != h) {
                    continue; // dropped from memory meanwhile: take the one in the map
                }
                return admit(h, deadLetter, limit, nowNanos);
            }
        }
    }

    /** Guarded by {@code h}. */
    private long admit(Health h, boolean deadLetter, int limit, long nowNanos) {
        if (deadLetter) {
            // No request goes out: neither the pause, the breaker nor the limit applies.
            h.inflight++;
            return ADMITTED;
        }
        if (h.pausedUntil - nowNanos > 0) {
            return h.pausedUntil;
        }
        boolean probe = false;
        if (h.breakerOpen) {
            if (h.openUntil - nowNanos > 0) {
                return h.openUntil;
            }
            if (h.probing) {
                return UNTIL_SETTLED;
            }
            probe = true;
        }
        if (h.inflight >= limit) {
            return UNTIL_SETTLED;
        }
        h.inflight++;
        h.probing |= probe;
        return ADMITTED;
    }

    @Override
    public boolean mayEndOnAnswer(long ord, int sink) {
        // An attempt sent before the breaker opened may still succeed and close it.
        Health h = health.get(EndpointRow.idOf(ord, sink));
        if (h == null) {
            return false;
        }
        synchronized (h) {
            return h.breakerOpen && h.inflight > 0;
        }
    }

    @Override
    public long epoch() {
        return states.epoch();
    }

    @Override
    public void unclaimed(long ord, int sink) {
        release(EndpointRow.idOf(ord, sink), null, 0);
    }

    @Override
    public Optional<SinkOutcome> shortCircuit(long ord, int sink) {
        if (settings.disabledPolicy() == EndpointSettings.DisabledPolicy.DEAD_LETTER) {
            EndpointRow state = states.get(ord, sink);
            if (state.disabled()) {
                return Optional.of(SinkOutcome.endpointDisabled("the endpoint is disabled ("
                        + state.disabledBy().orElseThrow().code() + ") and endpoint.disabled-policy is dead-letter"));
            }
        }
        return Optional.empty();
    }

    @Override
    public void answered(long ord, int sink, SinkOutcome outcome, long nowNanos) {
        release(EndpointRow.idOf(ord, sink), outcome, nowNanos);
    }

    private void release(long id, SinkOutcome outcome, long nowNanos) {
        Health h = health.get(id);
        if (h == null) {
            return;
        }
        synchronized (h) {
            h.inflight = Math.max(0, h.inflight - 1);
            if (outcome == null) {
                // Not sent after all: if it was the half-open breaker's probe, another may go.
                h.probing = false;
            } else if (outcome instanceof SinkOutcome.Delivered) {
                h.consecutiveFailures = 0;
                h.breakerOpen = false;
                h.probing = false;
            } else if (outcome instanceof SinkOutcome.Dead) {
                // A verdict on that one delivery, not on the endpoint: no count, no reset — but if
                // it was the half-open breaker's probe, the probe is answered and another may go
                // (left probing, the endpoint would take nothing again).
                h.probing = false;
            } else if (outcome instanceof SinkOutcome.Retry retry) {
                // Only a retryable failure says something about the endpoint's health. A Dead
                // outcome is a verdict on that one delivery (a status configured as permanent, a
                // request that cannot be built): it neither counts nor resets the run.
                h.consecutiveFailures++;
                if (retry.after().isPresent()) {
                    Duration pause = retry.after().get().compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : retry.after().get();
                    long until = nowNanos + pause.toNanos();
                    if (until - h.pausedUntil > 0 || h.pausedUntil - nowNanos <= 0) {
                        h.pausedUntil = until;
                    }
                }
                if (h.breakerOpen || h.consecutiveFailures >= settings.breakerFailures()) {
                    h.breakerOpen = true;
                    h.probing = false;
                    h.openUntil = nowNanos + intervalNanos;
                }
            }
            if (h.forgettable(nowNanos)) {
                health.remove(id, h);
            }
        }
    }
}
