package io.ankusa.dispatch.sink;

import java.util.concurrent.CompletionStage;

/**
 * Where a hook goes: delivers one attempt and reports how it ended.
 *
 * <p>An implementation returns promptly (the work happens asynchronously) and completes the stage
 * in bounded time with a {@link SinkOutcome}. It should not throw nor fail the stage: the
 * {@link Sinks} router turns a thrown exception or a failed stage into a
 * {@linkplain SinkOutcome.Retry retry}, so a bug in a sink costs retries, never a lost hook.
 * Delivery is at least once: the same hook may come again, with the same
 * {@link Delivery#hookId()}, after a retry, a replay or a crash of the node.
 *
 * @see io.ankusa.dispatch.http.HttpSink
 */
@FunctionalInterface
public interface Sink {

    /** {@link #endpointConcurrency()} of a sink with no limit of its own. */
    int UNBOUNDED = Integer.MAX_VALUE;

    /**
     * Starts delivering {@code delivery}; the stage completes with the outcome.
     *
     * @param delivery the attempt: the hook, its tenant, its sink number and the attempt's number
     * @return a stage completing with the outcome; a stage that fails is settled as a retry
     */
    CompletionStage<SinkOutcome> deliver(Delivery delivery);

    /**
     * The most attempts this sink can usefully have under way to one endpoint (a tenant's sink)
     * at once: the pipeline's per-endpoint concurrency limit, unless {@code endpoint.max-concurrency}
     * sets one. A sink over a connection pool declares its per-host connection limit, so that no
     * claimed row waits in the pool with its deadline running; an in-process sink keeps the default,
     * {@link #UNBOUNDED}, and is limited by the pipeline's {@code concurrency} only.
     *
     * @return at least 1; {@link #UNBOUNDED} (the default) for no limit of the sink's own
     */
    default int endpointConcurrency() {
        return UNBOUNDED;
    }
}
